package dev.nqueens.h2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nqueens.TestDatabases;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader cannot hold up the holder of an H2 file: a reading statement over the timeout is
 * cancelled (whether or not its client still waits for it), the holder's own statements never are,
 * and a reading session that makes a writer wait for a lock is ended at once. The clock is the
 * test's: the timeout is passed by moving it, not by waiting.
 */
class ReadingSessionsIntegrationTests {

    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    /** Runs until cancelled: far more rows than a test waits for. */
    private static final String ENDLESS = "SELECT SUM(\"X\") FROM SYSTEM_RANGE(1, 1000000000000)";

    @TempDir
    Path work;

    private String url;
    private Connection owner;
    private ReadingSessions sessions;

    @BeforeEach
    void aFileWithItsReadingLogin() throws SQLException {
        url = TestDatabases.h2Url(work.resolve("nqueens"));
        owner = DriverManager.getConnection(url, "sa", "secret");
        try (Statement statement = owner.createStatement()) {
            statement.execute("CREATE TABLE run_lock (lock_id INT PRIMARY KEY, epoch INT)");
            statement.execute("INSERT INTO run_lock VALUES (1, 1)");
        }
        ReadingLogin.grant(owner, "secret");
    }

    /** The sessions looked at by a clock {@code ahead} of the database's. */
    private ReadingSessions sessions(Duration ahead) {
        sessions = new ReadingSessions(
                this::ownerConnection, Set.of(ReadingLogin.USER), TIMEOUT, Clock.offset(Clock.systemUTC(), ahead));
        return sessions;
    }

    @AfterEach
    void close() throws SQLException {
        if (sessions != null) {
            sessions.close();
        }
        owner.close();
    }

    @Test
    void aReadingStatementOverTheTimeoutIsCancelledAndTheHoldersOwnIsNot() throws Exception {
        try (Connection reader = reader();
                Connection holder = ownerConnection()) {
            CompletableFuture<Object> reading = CompletableFuture.supplyAsync(() -> run(reader, ENDLESS));
            CompletableFuture<Object> holding = CompletableFuture.supplyAsync(() -> run(holder, ENDLESS));
            await().atMost(30, TimeUnit.SECONDS).until(() -> executing() == 2);

            List<Integer> acted = sessions(TIMEOUT.plusSeconds(1)).tick();

            assertThat(acted).hasSize(1);
            assertThat(reading.get(30, TimeUnit.SECONDS))
                    .as("the reader's statement ends cancelled")
                    .isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getSQLState())
                    .isEqualTo("57014");
            assertThat(holding).as("the holder's own statement goes on").isNotDone();
            cancelEveryStatement();
            holding.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aReadingStatementWithinTheTimeoutGoesOn() throws Exception {
        try (Connection reader = reader()) {
            CompletableFuture<Object> reading = CompletableFuture.supplyAsync(() -> run(reader, ENDLESS));
            await().atMost(30, TimeUnit.SECONDS).until(() -> executing() == 1);

            assertThat(sessions(TIMEOUT.minusSeconds(10)).tick()).isEmpty();
            assertThat(reading).isNotDone();
            cancelEveryStatement();
            reading.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aReaderHoldingALockAWriterWaitsForIsEnded() throws Exception {
        try (Connection reader = reader();
                Connection writer = ownerConnection()) {
            reader.setAutoCommit(false);
            run(reader, "SELECT lock_id FROM run_lock FOR UPDATE");
            run(writer, "SET LOCK_TIMEOUT 60000");
            CompletableFuture<Object> update =
                    CompletableFuture.supplyAsync(() -> run(writer, "UPDATE run_lock SET epoch = 2"));
            await().atMost(30, TimeUnit.SECONDS).until(this::someoneWaits);

            assertThat(sessions(Duration.ZERO).tick()).hasSize(1);

            assertThat(update.get(30, TimeUnit.SECONDS))
                    .as("the writer goes on")
                    .isEqualTo(1);
            assertThat(run(reader, "SELECT 1")).as("the reader was ended").isInstanceOf(SQLException.class);
        }
    }

    /** Runs {@code sql}: the update count or a row's first value, or the failure. */
    private static Object run(Connection connection, String sql) {
        try (Statement statement = connection.createStatement()) {
            if (statement.execute(sql)) {
                var rows = statement.getResultSet();
                rows.next();
                return rows.getObject(1);
            }
            return statement.getUpdateCount();
        } catch (SQLException e) {
            return e;
        }
    }

    /** Ends what a test left running, from a connection of its own (a session runs one statement at a time). */
    private void cancelEveryStatement() throws SQLException {
        try (Connection cancel = ownerConnection();
                Statement statement = cancel.createStatement()) {
            statement.execute("SELECT CANCEL_SESSION(session_id) FROM information_schema.sessions"
                    + " WHERE executing_statement LIKE 'SELECT SUM%'");
        }
    }

    private long executing() throws SQLException {
        try (Connection look = ownerConnection()) {
            return TestDatabases.count(
                    look,
                    "SELECT COUNT(*) FROM information_schema.sessions WHERE executing_statement"
                            + " LIKE 'SELECT SUM%'");
        }
    }

    private boolean someoneWaits() throws SQLException {
        try (Connection look = ownerConnection()) {
            return TestDatabases.count(
                            look, "SELECT COUNT(*) FROM information_schema.sessions WHERE blocker_id IS NOT" + " NULL")
                    > 0;
        }
    }

    private Connection reader() throws SQLException {
        return DriverManager.getConnection(url, ReadingLogin.USER, ReadingLogin.password("secret"));
    }

    private Connection ownerConnection() {
        try {
            return DriverManager.getConnection(url, "sa", "secret");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
