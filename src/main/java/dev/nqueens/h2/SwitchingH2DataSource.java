package dev.nqueens.h2;

import dev.nqueens.failure.Failure;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.nqueens.h2.H2CrashRecovery;
import dev.nqueens.h2.H2File;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.datasource.AbstractDataSource;

/**
 * The connection pool of {@code serve} on an embedded H2 file: the file is open read-only
 * ({@code ACCESS_MODE_DATA=r}, never created) between runs, so serving leaves it byte for byte as
 * it was, and read-write only while a scheduled run works ({@link #writableDuring}). Switching
 * closes one pool (H2 closes the file with its last connection) and opens the other; requests wait
 * for the switch, and a request caught in the middle of one fails.
 */
public final class SwitchingH2DataSource extends AbstractDataSource implements DisposableBean {

    private final H2File file;
    private final String user;
    private final String password;
    private final ReentrantReadWriteLock switching = new ReentrantReadWriteLock(true);
    private HikariDataSource pool;

    public SwitchingH2DataSource(H2File file, String user, String password) {
        this.file = file;
        this.user = user;
        this.password = password;
        this.pool = open(readOnlyUrl(), "read-only");
    }

    private String readOnlyUrl() {
        return file.readOnlyUrl() + ";IFEXISTS=TRUE";
    }

    @Override
    public Connection getConnection() throws SQLException {
        switching.readLock().lock();
        try {
            return pool.getConnection();
        } finally {
            switching.readLock().unlock();
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    /**
     * Runs {@code work} with the file open for writing, then reopens it read-only. Before, as
     * {@code run} and {@code schedule} do when they start, a file left by a run that was killed
     * holding it is rebuilt ({@link H2CrashRecovery}).
     */
    public <T> T writableDuring(java.util.function.Supplier<T> work) {
        switchTo(file.url(), "read-write");
        try {
            return work.get();
        } finally {
            switchTo(readOnlyUrl(), "read-only");
        }
    }

    private void switchTo(String url, String name) {
        switching.writeLock().lock();
        try {
            pool.close();
            try {
                if (!url.equals(readOnlyUrl())) {
                    new H2CrashRecovery(file, user, password, System.out).recoverIfNeeded();
                }
                pool = open(url, name);
            } catch (RuntimeException e) {
                // Another process may hold the file (an analyst's read-only sql): stay readable.
                pool = open(readOnlyUrl(), "read-only");
                throw new IllegalStateException("cannot open the database for writing: " + Failure.rootMessage(e), e);
            }
        } finally {
            switching.writeLock().unlock();
        }
    }

    private HikariDataSource open(String url, String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setPoolName("nqueens-" + name);
        config.setMaximumPoolSize(8);
        return new HikariDataSource(config);
    }

    @Override
    public void destroy() {
        switching.writeLock().lock();
        try {
            pool.close();
        } finally {
            switching.writeLock().unlock();
        }
    }

}
