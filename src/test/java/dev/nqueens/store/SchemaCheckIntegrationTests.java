package dev.nqueens.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** Only runs migrate: every other command refuses a database at another schema version. */
class SchemaCheckIntegrationTests {

    private static String url(String name) {
        return "jdbc:h2:mem:" + name + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1";
    }

    private static Flyway flyway(String name, String target) {
        return Flyway.configure()
                .dataSource(url(name), "sa", "")
                .locations("classpath:db/migration")
                .target(target)
                .load();
    }

    private static DataSource database(String name) {
        return new DriverManagerDataSource(url(name), "sa", "");
    }

    @Test
    void theVersionThisBuildNeedsIsItsNewestMigration() throws IOException {
        try (Stream<Path> sql = Files.list(Path.of("db", "migration"));
                Stream<Path> java = Files.list(Path.of("src", "main", "java", "db", "migration"))) {
            int newest = Stream.concat(sql, java)
                    .map(p -> p.getFileName().toString())
                    .filter(name -> name.matches("V\\d+__.*"))
                    .mapToInt(name -> Integer.parseInt(name.substring(1, name.indexOf("__"))))
                    .max()
                    .orElseThrow();
            assertThat(SchemaCheck.VERSION).isEqualTo(newest);
        }
        Flyway flyway = flyway("newest", "latest");
        assertThat(flyway.info()
                        .all()[flyway.info().all().length - 1]
                        .getVersion()
                        .getVersion())
                .isEqualTo(Integer.toString(SchemaCheck.VERSION));
    }

    @Test
    void anEmptyDatabaseIsRefusedAndLeftEmpty() throws Exception {
        assertThatThrownBy(() -> SchemaCheck.check(database("empty")))
                .hasMessageContaining("./nqueens run")
                .isInstanceOf(SchemaCheck.SchemaMismatchException.class);
        try (Connection db = DriverManager.getConnection(url("empty"), "sa", "");
                Statement statement = db.createStatement();
                var tables = statement.executeQuery(
                        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'")) {
            tables.next();
            assertThat(tables.getInt(1)).isZero();
        }
    }

    @Test
    void anOlderSchemaIsRefusedUntilARunMigratesIt() {
        flyway("older", "3").migrate();
        // The two versions, and the command that migrates.
        assertThatThrownBy(() -> SchemaCheck.check(database("older")))
                .isInstanceOf(SchemaCheck.SchemaMismatchException.class)
                .hasMessageFindingMatch("version 3\\b")
                .hasMessageContainingAll("version " + SchemaCheck.VERSION, "./nqueens run");
        flyway("older", "latest").migrate();
        assertThatCode(() -> SchemaCheck.check(database("older"))).doesNotThrowAnyException();
    }

    @Test
    void aNewerSchemaIsRefused() throws Exception {
        flyway("newer", "latest").migrate();
        try (Connection db = DriverManager.getConnection(url("newer"), "sa", "");
                Statement statement = db.createStatement()) {
            statement.execute("""
                    INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum,
                        installed_by, execution_time, success)
                    SELECT MAX(installed_rank) + 1, '999', 'from the future', 'SQL', 'V999__from_the_future.sql', 0,
                        'sa', 0, TRUE FROM flyway_schema_history""");
        }
        assertThatThrownBy(() -> SchemaCheck.check(database("newer")))
                // the wording docs/cluster.md quotes
                .hasMessageStartingWith("the database schema is at version 999, newer than this build of nqueens");
    }

    @Test
    void aFailedMigrationIsRefused() {
        assertThatThrownBy(() -> SchemaCheck.check(SchemaCheck.VERSION, "12"))
                .hasMessageContaining("migration 12 failed");
    }
}
