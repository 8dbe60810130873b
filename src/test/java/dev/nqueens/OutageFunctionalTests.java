package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * What a night brings, with the real jar in separate processes: workers started before the schema
 * exists, the database's PostgreSQL server restarted ({@code pg_ctl restart -m fast}, a server of
 * this test's own) while the cluster counts and while one machine stores, a second run started
 * while the server is down, and the broker's node stopped and started while the cluster counts.
 * Each run ends exit 0 with exactly the published values (Q(n), U(n) and the symmetry split),
 * {@code verify} passes after each, and neither a stack trace nor the connection pool's warnings
 * reach the console. The same two workers serve every test. In CI ({@code CI=true}) these tests
 * fail, never skip, when the means to restart the servers are missing.
 */
@ResourceLock(value = TestResources.BROKER, mode = ResourceAccessMode.READ_WRITE)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(6) // one of the longest classes: third from the front, after the cluster class (see the pom)
class OutageFunctionalTests {

    private static final Duration LONG = Duration.ofMinutes(5);
    private static final String DATABASE = "nqueens_outage";

    @TempDir
    static Path work;

    private static OwnPostgres postgres;
    private static Map<String, String> environment;
    private static final List<NqueensProcess> workers = new ArrayList<>();
    private static final List<NqueensProcess> processes = new ArrayList<>();

    @BeforeAll
    static void ownDatabaseServerAndSettings() throws Exception {
        String missing = System.getenv(TestBroker.URI_VARIABLE) == null
                ? "set " + TestBroker.URI_VARIABLE
                : OwnPostgres.missing();
        if (missing == null) {
            missing = TestBroker.controlMissing();
        }
        if (missing != null) {
            String why =
                    "the outage tests need a broker they may stop and a PostgreSQL server of their own: " + missing;
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(why);
            }
            Assumptions.abort(why);
        }
        postgres = OwnPostgres.start(DATABASE);
        environment = new HashMap<>(postgres.environment(DATABASE));
        environment.putAll(TestBroker.environment());
        Files.createDirectories(work.resolve("config"));
        Files.writeString(work.resolve("config/application.yml"), """
                nqueens:
                  progress-interval: 1s
                  outage-wait: 90s
                  cluster:
                    enabled: true
                    queue: nqueens.test.%s
                """.formatted(UUID.randomUUID()));
    }

    @AfterAll
    static void stopEverything() throws Exception {
        for (NqueensProcess worker : workers) {
            signal("CONT", worker);
        }
        for (NqueensProcess process : processes) {
            if (process.isAlive()) {
                NqueensProcess.Result left = process.kill();
                System.out.println("--- a process still running at the end:\n" + left.out() + left.err());
            }
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    @Order(1)
    void workersStartedBeforeTheSchemaExistsWaitForItAndJoinTheFirstRun() throws Exception {
        for (int i = 0; i < 2; i++) {
            NqueensProcess worker = start(environment, "worker", "--threads", "1");
            worker.awaitLine(
                    line -> line.contains(" waiting for the schema: the database has no nqueens schema yet"), LONG);
            workers.add(worker);
        }

        // n = 13 and 14 dealt into 64 partitions each (by default one each: they count in milliseconds), so
        // that the run lasts until both workers, which look for the schema every few seconds, have joined.
        Map<String, String> manyPartitions = new HashMap<>(environment);
        manyPartitions.put("NQUEENS_COUNT_PARTITIONS", "64");
        NqueensProcess.Result run = run(
                manyPartitions, "run", "--sizes", "1-14", "--store-all-up-to", "10", "--store-fundamental-up-to", "12");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertExactlyTheKnownValues(1, 14);
        for (NqueensProcess worker : workers) {
            worker.awaitLine(line -> line.contains(" started: 1 thread(s)"), LONG);
        }
        assertThat(query("SELECT COUNT(DISTINCT worker_id) FROM partition_execution WHERE outcome = 'COMPLETED'"))
                .as("both waiting workers took part")
                .isEqualTo(2);
        verify();
    }

    @Test
    @Order(2)
    void aDatabaseRestartWhileTheClusterCountsCostsSecondsAndASecondRunIsRefusedMeanwhile() throws Exception {
        long started = System.nanoTime();
        NqueensProcess manager = start(
                environment, "run", "--sizes", "15-17", "--store-all-up-to", "0", "--store-fundamental-up-to", "0");
        awaitOnAWorker(line -> line.contains("partition countPart:n17-") && line.contains(" started"));

        // The server restarts in two halves, and the second run is started between them, while the server is
        // down (its JVM first reaches the database seconds later), with the workers held still: the first
        // run's manager, back from the restart, must still hold the run lock (a session lock would have gone
        // with the restart) and beat its heartbeat.
        long down = System.nanoTime();
        postgres.stop();
        workers.forEach(worker -> signal("STOP", worker));
        Duration restart;
        NqueensProcess.Result second;
        try {
            NqueensProcess secondRun = start(environment, "run", "--sizes", "16");
            postgres.startAgain();
            restart = Duration.ofNanos(System.nanoTime() - down);
            second = secondRun.waitFor(LONG);
        } finally {
            workers.forEach(worker -> signal("CONT", worker));
        }
        assertThat(second.exitCode())
                .as(second.out() + second.err() + "\nthe first run meanwhile: " + manager.output()
                        + (manager.isAlive() ? "" : "(ended)"))
                .isEqualTo(3);
        assertThat(second.err())
                .startsWith("nqueens: another nqueens run is using this database (")
                .endsWith("; one run at a time\n");

        NqueensProcess.Result first = manager.waitFor(LONG);
        System.out.printf(
                "cluster count 15-17 with a database restart (%d ms): %.1f s%n",
                restart.toMillis(), (System.nanoTime() - started) / 1e9);
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        assertExactlyTheKnownValues(15, 17);
        assertOnlyTheProductsOwnLines(first);
        verify();
    }

    @Test
    @Order(3)
    void theBrokerStoppedAndStartedWhileTheClusterCountsCostsSeconds() throws Exception {
        long started = System.nanoTime();
        NqueensProcess manager = start(
                environment,
                "run",
                "--sizes",
                "17",
                "--force",
                "--store-all-up-to",
                "0",
                "--store-fundamental-up-to",
                "0");
        awaitOnAWorker(line -> line.contains("partition countPart:n17-") && line.contains(" started"));

        TestBroker.control("stop_app");
        Thread.sleep(5_000);
        TestBroker.control("start_app");

        NqueensProcess.Result run = manager.waitFor(LONG);
        System.out.printf(
                "cluster count 17 with the broker stopped for 5 s: %.1f s%n", (System.nanoTime() - started) / 1e9);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertExactlyTheKnownValues(17, 17);
        assertOnlyTheProductsOwnLines(run);
        String said = run.out() + workers.stream().map(NqueensProcess::output).reduce("", String::concat);
        assertThat(said).contains("the broker went away: ").contains("the broker is back after ");
        verify();
    }

    @Test
    @Order(4)
    void aDatabaseRestartWhileOneMachineStoresCostsSeconds() throws Exception {
        Map<String, String> oneMachine = new HashMap<>(environment);
        oneMachine.put("NQUEENS_CLUSTER_ENABLED", "false");
        long started = System.nanoTime();
        // Class representatives only: staging every solution of n = 14 and publishing it is slow on
        // PostgreSQL for a reason of its own (deleting staged representatives scans staged_solution).
        NqueensProcess manager = start(
                oneMachine,
                "run",
                "--sizes",
                "14-15",
                "--store-all-up-to",
                "0",
                "--store-fundamental-up-to",
                "15",
                "--threads",
                "2");
        manager.awaitLine(line -> line.contains("n=15 ") && !line.contains("n=15 0%"), LONG);

        Duration restart = postgres.restart();

        NqueensProcess.Result run = manager.waitFor(LONG);
        System.out.printf(
                "store 14-15 on one machine with a database restart (%d ms): %.1f s%n",
                restart.toMillis(), (System.nanoTime() - started) / 1e9);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("running the unfinished work again from its last commit (rerun 1 of 5)")
                .contains("The run lost the database 1 time(s) and went on each time from its last commits.");
        assertExactlyTheKnownValues(14, 15);
        assertThat(query("SELECT COUNT(*) FROM fundamental_solution WHERE n = 15"))
                .isEqualTo(Reference.counts(15).fundamental());
        assertThat(query("SELECT COUNT(DISTINCT placement) FROM fundamental_solution WHERE n = 15"))
                .isEqualTo(Reference.counts(15).fundamental());
        assertOnlyTheProductsOwnLines(run);
        verify();
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static NqueensProcess start(Map<String, String> environment, String... args) throws IOException {
        NqueensProcess process = NqueensProcess.start(work, environment, args);
        processes.add(process);
        return process;
    }

    private static NqueensProcess.Result run(Map<String, String> environment, String... args) throws Exception {
        return start(environment, args).waitFor(LONG);
    }

    private static void verify() throws Exception {
        NqueensProcess.Result verify = run(environment, "verify");
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
    }

    /** Waits for a line a worker prints from now on (lines of earlier tests do not count). */
    private static void awaitOnAWorker(Predicate<String> wanted) throws InterruptedException {
        List<Long> seen =
                workers.stream().map(worker -> worker.output().lines().count()).toList();
        long deadline = System.nanoTime() + LONG.toNanos();
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < workers.size(); i++) {
                if (workers.get(i).output().lines().skip(seen.get(i)).anyMatch(wanted)) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no worker printed the line within " + LONG);
    }

    /** SIGSTOP or SIGCONT: a process held still, as by a long pause, or let go. */
    private static void signal(String signal, NqueensProcess process) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .start()
                    .waitFor();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The console gets the product's lines only: no stack trace, no pool warning, no Spring Batch wording. */
    private static void assertOnlyTheProductsOwnLines(NqueensProcess.Result result) {
        assertThat(result.out() + result.err())
                .doesNotContain("\tat ", "maxLifetime", "UNKNOWN", "Partition handler", "HikariPool");
    }

    private static void assertExactlyTheKnownValues(int from, int to) throws SQLException {
        for (int n = from; n <= to; n++) {
            Reference.Counts expected = Reference.counts(n);
            assertThat(query("SELECT total_solutions FROM board_summary WHERE n = " + n))
                    .as("Q(%d)", n)
                    .isEqualTo(expected.total());
            assertThat(query("SELECT fundamental_solutions FROM board_summary WHERE n = " + n))
                    .as("U(%d)", n)
                    .isEqualTo(expected.fundamental());
            assertThat(query("SELECT rot90_classes FROM board_summary WHERE n = " + n))
                    .isEqualTo(expected.rot90());
            assertThat(query("SELECT rot180_classes FROM board_summary WHERE n = " + n))
                    .isEqualTo(expected.rot180());
            assertThat(query("SELECT asymmetric_classes FROM board_summary WHERE n = " + n))
                    .isEqualTo(expected.asymmetric());
        }
        assertThat(query("SELECT COUNT(*) FROM count_unit"))
                .as("units are kept only until published")
                .isZero();
    }

    private static long query(String sql) throws SQLException {
        try (Connection db = DriverManager.getConnection(postgres.url(DATABASE), "postgres", "postgres");
                Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
