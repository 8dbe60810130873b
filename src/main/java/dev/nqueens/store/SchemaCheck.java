package dev.nqueens.store;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.Failure;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Who changes the schema: only the commands that run the job ({@code run}, {@code schedule}, {@code serve})
 * migrate the database, with Flyway. Every other command only checks, with one query of Flyway's
 * history table and no Flyway class loaded, that the database is at exactly the schema version
 * this build was made for, and refuses to go on otherwise: an older database has to be migrated by
 * a run first, a newer one needs a newer build.
 */
public final class SchemaCheck {

    /** The newest migration this build ships ({@code db/migration}); a test holds it to the files. */
    public static final int VERSION = 16;

    /** "Table not found", in H2's and PostgreSQL's words. */
    private static final Set<String> NO_TABLE = Set.of("42S02", "42S03", "42S04", "42P01");

    private SchemaCheck() {}

    /**
     * @throws SchemaMismatchException naming the database's version and the one wanted
     * @throws SQLException if the database cannot be read
     */
    public static void check(DataSource dataSource) throws SQLException {
        int newest = 0;
        String failed = null;
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL")) {
            while (rows.next()) {
                int version = Integer.parseInt(rows.getString(1).trim());
                newest = Math.max(newest, version);
                if (!rows.getBoolean(2)) {
                    failed = rows.getString(1);
                }
            }
        } catch (SQLException e) {
            if (NO_TABLE.contains(e.getSQLState())) {
                throw new SchemaMismatchException(
                        "the database has no nqueens schema yet: `./nqueens run` creates it", true);
            }
            throw e;
        }
        check(newest, failed);
    }

    static void check(int found, String failed) {
        if (found == 0) {
            throw new SchemaMismatchException(
                    "the database has no nqueens schema yet: `./nqueens run` creates it", true);
        }
        if (failed != null) {
            throw new SchemaMismatchException(
                    "the database schema does not match this build's migrations (version " + VERSION + "): migration "
                            + failed + " failed; the next `./nqueens run` repairs it",
                    false);
        }
        if (found > VERSION) {
            throw new SchemaMismatchException(
                    "the database schema is at version " + found + ", newer than this build of nqueens (version "
                            + VERSION + "): upgrade this installation",
                    false);
        }
        if (found < VERSION) {
            throw new SchemaMismatchException(
                    "the database schema is at version " + found + ", this build needs version " + VERSION
                            + ": the next `./nqueens run` (or `schedule`, `serve`) migrates it",
                    true);
        }
    }

    /** The database is not at the schema version this build needs (exit 1). */
    public static final class SchemaMismatchException extends Failure {

        private final boolean behind;

        SchemaMismatchException(String message, boolean behind) {
            super(ExitCode.FAILED, message);
            this.behind = behind;
        }

        /** Whether the database has no schema yet, or an older one: the next run migrates it (a worker waits for it). */
        public boolean behind() {
            return behind;
        }
    }
}
