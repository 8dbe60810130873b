package dev.nqueens.query;

import dev.nqueens.failure.Failure;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a database holds, as {@code restore} reports it before putting a backup in place.
 *
 * @param schemaVersion the newest migration applied to it
 * @param published the published sizes
 * @param unfinishedRun the run that was under way when it was copied, if one was
 */
public record DatabaseContents(int schemaVersion, List<Integer> published, Optional<Long> unfinishedRun) {

    /** A database that holds no nqueens schema (no Flyway history). */
    public static final class NoSchemaException extends RuntimeException {
        NoSchemaException(SQLException cause) {
            super("it holds no nqueens schema (" + Failure.firstLine(cause) + ")", cause);
        }
    }

    /**
     * @throws NoSchemaException if it has no Flyway history
     * @throws SQLException if it cannot be read
     */
    public static DatabaseContents read(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            int version = 0;
            try (ResultSet rows = statement.executeQuery(
                    "SELECT version FROM flyway_schema_history WHERE version IS NOT NULL AND success")) {
                while (rows.next()) {
                    version =
                            Math.max(version, Integer.parseInt(rows.getString(1).trim()));
                }
            } catch (SQLException e) {
                throw new NoSchemaException(e);
            }
            List<Integer> published = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SELECT n FROM board_summary ORDER BY n")) {
                while (rows.next()) {
                    published.add(rows.getInt(1));
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT MAX(job_execution_id) FROM batch_job_execution"
                    + " WHERE status IN ('STARTING', 'STARTED', 'STOPPING')")) {
                rows.next();
                long id = rows.getLong(1);
                return new DatabaseContents(version, published, rows.wasNull() ? Optional.empty() : Optional.of(id));
            }
        }
    }
}
