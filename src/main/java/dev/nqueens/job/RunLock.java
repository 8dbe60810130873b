package dev.nqueens.job;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Component;

/**
 * One run at a time per database. An embedded H2 file admits a single process, so holding the
 * database is the lock (a second process cannot open it, and the operating system releases it
 * when a process dies). On PostgreSQL the run holds a session-level advisory lock on its own
 * connection; the server releases it when that session ends, crashed or not, so a stale lock
 * cannot block the next night.
 */
@Component
public class RunLock {

    /** The advisory lock key: "NQUEENS" in ASCII, fitting a bigint. */
    static final long ADVISORY_KEY = 0x4E5155454E53L;

    private final DataSource dataSource;

    public RunLock(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A held lock; closing it releases the lock. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * @throws RunInProgressException if another run holds the lock
     */
    public Held acquire() {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            if (!"PostgreSQL".equals(connection.getMetaData().getDatabaseProductName())) {
                DataSourceUtils.releaseConnection(connection, dataSource);
                return () -> { };
            }
            try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                lock.setLong(1, ADVISORY_KEY);
                try (ResultSet result = lock.executeQuery()) {
                    result.next();
                    if (!result.getBoolean(1)) {
                        DataSourceUtils.releaseConnection(connection, dataSource);
                        throw new RunInProgressException("another nqueens run is using this database; one run at a time");
                    }
                }
            }
            return () -> unlock(connection);
        } catch (SQLException e) {
            DataSourceUtils.releaseConnection(connection, dataSource);
            throw new IllegalStateException("cannot take the run lock: " + e.getMessage(), e);
        }
    }

    private void unlock(Connection connection) {
        try (PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            unlock.setLong(1, ADVISORY_KEY);
            unlock.execute();
        } catch (SQLException e) {
            // The lock goes with the session anyway.
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }
}
