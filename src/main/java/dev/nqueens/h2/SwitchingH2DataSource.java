package dev.nqueens.h2;

import dev.nqueens.failure.Failure;
import dev.nqueens.job.RunDatabase;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.datasource.AbstractDataSource;

/**
 * The connection pool of the commands that run the job on an embedded H2 file, which closes the
 * file after each run, compacts it if the run grew it ({@link H2Compaction}) and opens it again.
 * For {@code serve} the file is open read-only ({@code ACCESS_MODE_DATA=r}, never created) between
 * runs, so serving leaves it byte for byte as it was, and read-write only while a scheduled run works
 * ({@link #writableDuring}); for {@code run} and {@code schedule} it is writable throughout. Switching
 * closes one pool (H2 closes the file with its last connection) and opens the other; requests wait
 * for the switch, and a request caught in the middle of one fails; a backup holds the switch off
 * until it is written ({@link #whileOpen}).
 */
public final class SwitchingH2DataSource extends AbstractDataSource implements RunDatabase, DisposableBean {

    private final H2File file;
    private final String user;
    private final String password;
    private final boolean readOnlyBetweenRuns;
    private final PrintStream out;
    private final ReentrantReadWriteLock switching = new ReentrantReadWriteLock(true);
    private HikariDataSource pool;
    /** Where a night's JVM publishes the URL {@code serve} reads through while the night holds the file. */
    private Path readsFile;
    private Optional<ProcessHandle> reader = Optional.empty();
    /** The file's size when it was last opened for writing: what a run has grown it from. */
    private long sizeWhenOpened;

    /** For {@code serve}: read-only between runs. */
    public SwitchingH2DataSource(H2File file, String user, String password) {
        this(file, user, password, true, System.out);
    }

    private SwitchingH2DataSource(H2File file, String user, String password, boolean readOnlyBetweenRuns,
            PrintStream out) {
        this.file = file;
        this.user = user;
        this.password = password;
        this.readOnlyBetweenRuns = readOnlyBetweenRuns;
        this.out = out;
        if (readOnlyBetweenRuns) {
            this.pool = open(readOnlyUrl(), "read-only");
        } else {
            this.sizeWhenOpened = size();
            this.pool = open(file.url(), "read-write");
        }
    }

    /** For {@code run} and {@code schedule}: writable throughout; says on {@code out} when it compacts. */
    public static SwitchingH2DataSource writable(H2File file, String user, String password, PrintStream out) {
        return new SwitchingH2DataSource(file, user, password, false, out);
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

    /** Work on one connection that may throw what JDBC and files throw. */
    @FunctionalInterface
    public interface ConnectionWork {
        void accept(Connection connection) throws SQLException, java.io.IOException;
    }

    /**
     * Runs {@code work} on a connection of the pool open now, which cannot switch meanwhile: a
     * backup is taken of one open database, and a switch that comes (a night starting or ending)
     * waits for it.
     */
    public void whileOpen(ConnectionWork work) throws SQLException, java.io.IOException {
        switching.readLock().lock();
        try (Connection connection = pool.getConnection()) {
            work.accept(connection);
        } finally {
            switching.readLock().unlock();
        }
    }

    /**
     * Runs {@code work} with the file open for writing; then closes it, compacts it if worthwhile,
     * and opens it again (read-only for {@code serve}). Before, when {@code serve} opens it for
     * writing, a file left by a run that was killed holding it is rebuilt ({@link H2CrashRecovery}),
     * as {@code run} and {@code schedule} do when they start.
     */
    @Override
    public <T> T writableDuring(Supplier<T> work) {
        if (readOnlyBetweenRuns) {
            switchTo(file.url(), "read-write", false);
        }
        try {
            if (readsFile == null) {
                return work.get();
            }
            try (NightReads reads = NightReads.serve(file, readsFile, reader)) {
                return work.get();
            }
        } finally {
            switchTo(readOnlyBetweenRuns ? readOnlyUrl() : file.url(), readOnlyBetweenRuns ? "read-only" : "read-write",
                    true);
        }
    }

    /**
     * For a night's JVM started by {@code serve} ({@code night --reads FILE}): while each run works,
     * serves the file to {@code serve} over H2's TCP protocol on the loopback interface and writes the
     * URL to {@code file} ({@link NightReads}); stops before the file is closed after the run.
     */
    public void serveReadsDuringRuns(Path file, Optional<ProcessHandle> serve) {
        this.readsFile = file;
        this.reader = serve;
    }

    /**
     * For {@code serve}, whose nights run in a JVM of their own: closes the file, and calls
     * {@code started}, which starts that JVM and returns once it has opened the file (the URL it
     * serves reads on) or ended (empty). Requests wait meanwhile, then read through that URL (or the
     * file, read-only, if the night ended first) until {@link #readingTheFile()}.
     */
    public void readingThroughNight(Supplier<Optional<String>> started) {
        closedWhile(started);
    }

    /**
     * When a night in a JVM of its own ends: stops reading through it, calls {@code ended} (which
     * tells that JVM and waits for it to end), and reads the file read-only again. Requests wait.
     */
    public void readingTheFile(Runnable ended) {
        closedWhile(() -> {
            ended.run();
            return Optional.empty();
        });
    }

    /** Closes the pool, calls {@code work}, and opens the URL it returns, or the file read-only. Requests wait. */
    private void closedWhile(Supplier<Optional<String>> work) {
        switching.writeLock().lock();
        try {
            pool.close();
            Optional<String> url = Optional.empty();
            try {
                url = work.get();
            } finally {
                pool = url.map(reads -> open(reads, "night")).orElseGet(() -> open(readOnlyUrl(), "read-only"));
            }
        } finally {
            switching.writeLock().unlock();
        }
    }

    private void switchTo(String url, String name, boolean afterRun) {
        switching.writeLock().lock();
        try {
            pool.close();
            if (afterRun) {
                compactIfWorthwhile();
            }
            boolean writing = !url.equals(readOnlyUrl());
            try {
                if (writing && readOnlyBetweenRuns) {
                    new H2CrashRecovery(file, user, password, out).recoverIfNeeded();
                }
                pool = open(url, name);
                if (writing) {
                    sizeWhenOpened = size();
                }
            } catch (RuntimeException e) {
                // Another process may hold the file (an analyst's read-only sql): stay readable.
                pool = open(readOnlyUrl(), "read-only");
                throw new IllegalStateException("cannot open the database for writing: " + Failure.rootMessage(e), e);
            }
        } finally {
            switching.writeLock().unlock();
        }
    }

    /** A compaction that fails leaves the file as it was: the run's outcome stands, with one line saying so. */
    private void compactIfWorthwhile() {
        try {
            new H2Compaction(file, user, password).compactIfWorthwhile(sizeWhenOpened)
                    .ifPresent(result -> out.printf("  compacted %s: %s%n", file.dataFile().getFileName(),
                            result.describe()));
        } catch (RuntimeException e) {
            out.printf("nqueens: %s was not compacted: %s%n", file.dataFile().getFileName(), Failure.rootMessage(e));
        }
    }

    private long size() {
        try {
            return Files.exists(file.dataFile()) ? Files.size(file.dataFile()) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private HikariDataSource open(String url, String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setPoolName("nqueens-" + name);
        config.setMaximumPoolSize(readOnlyBetweenRuns ? 8 : 10);
        if (!url.startsWith("jdbc:h2:file:")) {
            // A night's server: requests that cannot reach it fail one by one; the pool stands.
            config.setInitializationFailTimeout(-1);
        }
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
