package dev.nqueens.store;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/** Only runs migrate: every other command refuses a database at another schema version. */
class SchemaCheckTests {

    private static Flyway flyway(String name, String target) {
        return Flyway.configure()
                .dataSource("jdbc:h2:mem:" + name + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1", "sa", "")
                .locations("classpath:db/migration")
                .target(target)
                .load();
    }

    @Test
    void anEmptyDatabaseIsRefusedAndLeftEmpty() {
        Flyway flyway = flyway("empty", "latest");
        assertThatThrownBy(() -> new SchemaCheck().migrate(flyway))
                .hasMessage("the database has no nqueens schema yet: `./nqueens run` creates it");
        assertThatThrownBy(() -> new SchemaCheck().migrate(flyway)).isInstanceOf(SchemaCheck.SchemaMismatchException.class);
    }

    @Test
    void anOlderSchemaIsRefusedUntilARunMigratesIt() {
        flyway("older", "3").migrate();
        Flyway current = flyway("older", "latest");
        assertThatThrownBy(() -> new SchemaCheck().migrate(current))
                .hasMessageStartingWith("the database schema is at version 3, this build needs version ")
                .hasMessageEndingWith(": the next `./nqueens run` (or `schedule`) migrates it");
        current.migrate();
        assertThatCode(() -> new SchemaCheck().migrate(current)).doesNotThrowAnyException();
    }

    @Test
    void aNewerSchemaIsRefused() throws Exception {
        Flyway current = flyway("newer", "latest");
        current.migrate();
        try (Connection db = DriverManager.getConnection(
                "jdbc:h2:mem:newer;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1", "sa", "");
                Statement statement = db.createStatement()) {
            statement.execute("""
                    INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum,
                        installed_by, execution_time, success)
                    SELECT MAX(installed_rank) + 1, '999', 'from the future', 'SQL', 'V999__from_the_future.sql', 0,
                        'sa', 0, TRUE FROM flyway_schema_history""");
        }
        assertThatThrownBy(() -> new SchemaCheck().migrate(current))
                .hasMessageStartingWith("the database schema is at version 999, newer than this build of nqueens");
    }
}
