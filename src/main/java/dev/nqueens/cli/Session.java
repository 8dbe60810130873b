package dev.nqueens.cli;

import dev.nqueens.failure.BusyException;
import dev.nqueens.h2.H2File;
import dev.nqueens.h2.HeldFile;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.store.Database;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * What a command works with once {@link Launch} has started what it needs: its settings, its
 * database and, for the job or the web, the application context. Closing it closes them. A
 * command that runs until it is stopped says how ({@link #onStop}): SIGTERM or Ctrl-C then calls
 * that and waits, up to two minutes, for the command to end on its own.
 */
final class Session implements AutoCloseable {

    private static final long STOP_GRACE_SECONDS = 120;

    private final Console console;
    private final ConfigurableEnvironment environment;
    private final NqueensProperties settings;
    private final Database database;
    private SingleConnectionDataSource connection;
    private final ConfigurableApplicationContext context;
    private final CountDownLatch finished = new CountDownLatch(1);
    private Thread stopper;
    private HeldFile held;

    Session(
            Console console,
            ConfigurableEnvironment environment,
            NqueensProperties settings,
            Database database,
            SingleConnectionDataSource connection,
            ConfigurableApplicationContext context) {
        this.console = console;
        this.environment = environment;
        this.settings = settings;
        this.database = database;
        this.connection = connection;
        this.context = context;
    }

    Console console() {
        return console;
    }

    NqueensProperties settings() {
        return settings;
    }

    ConfigurableEnvironment environment() {
        return environment;
    }

    /** The database, opened as the command needs it (one connection, without a context). */
    DataSource dataSource() {
        return context != null ? context.getBean(DataSource.class) : connection;
    }

    /**
     * Closes the connection the schema was checked on, for a command that opens the file its own way
     * ({@code db-server} reopens it read-only: a connection left open would keep it writable).
     */
    void closeConnection() {
        if (connection != null) {
            connection.destroy();
            connection = null;
        }
    }

    /** The configured database. */
    Database database() {
        return database;
    }

    /** Asks {@code run}'s night, if one is running, to stop at its next chunk boundary, and says so. */
    void stopTheNight(NightlyRun run) {
        if (run.stopRunning()) {
            console.err().println("nqueens: stopping at the next chunk boundary; the next run resumes");
        }
    }

    /** A bean of the application context. */
    <T> T bean(Class<T> type) {
        if (context == null) {
            throw new IllegalStateException("this command started no application context");
        }
        return context.getBean(type);
    }

    /**
     * Serves the embedded H2 file this command holds to the others (the reading commands,
     * {@code backup}) through H2's TCP server, marked as held by {@code command}, which a refused
     * run names as {@link #holder} says; nothing for other databases. Until the session closes.
     */
    void hold(String command, String inParentheses, String then) {
        Optional<H2File> file = database.h2File();
        if (file.isEmpty()) {
            return;
        }
        try {
            held = HeldFile.hold(
                    file.get(),
                    database.username(),
                    database.password(),
                    settings.dbServer(),
                    false,
                    command,
                    0,
                    holder(command, inParentheses, then),
                    settings.statementTimeout());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot serve the database to the other commands: " + e.getMessage(), e);
        }
    }

    /**
     * This process as a refused run names it: "`nqueens serve` (pid 12, http://…), which runs the
     * nightly job itself on its schedule '0 2 * * *'", from {@code inParentheses} (", http://…")
     * and {@code then}.
     */
    static String holder(String command, String inParentheses, String then) {
        return BusyException.holder(command, ProcessHandle.current().pid(), inParentheses) + then;
    }

    /** ", which runs the nightly job itself on its schedule '0 2 * * *'": how schedule and serve name their nights. */
    static String runningTheNights(String cron) {
        return ", which runs the nightly job itself on its schedule '" + cron + "'";
    }

    /**
     * On SIGTERM (or Ctrl-C), {@code stop} is called, and the process ends once the command has
     * returned; {@code exitCode} (if not null) ends it at once with that code after the command
     * returned, skipping anything still running (a worker whose partitions were handed back).
     */
    void onStop(Runnable stop, Integer exitCode) {
        stopper = new Thread(
                () -> {
                    try {
                        stop.run();
                        finished.await(STOP_GRACE_SECONDS, TimeUnit.SECONDS);
                        if (exitCode != null) {
                            console.err().flush();
                            Runtime.getRuntime().halt(exitCode);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        // the command is ending on its own
                    }
                },
                "nqueens-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
    }

    @Override
    public void close() {
        try {
            if (connection != null) {
                connection.destroy();
            }
            if (held != null) {
                held.stopServing();
            }
            if (context != null) {
                context.close();
            }
            if (held != null) {
                held.release(console.out());
            }
        } finally {
            finished.countDown();
            if (stopper != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(stopper);
                } catch (IllegalStateException e) {
                    // the JVM is already shutting down: the hook is running
                }
            }
        }
    }
}
