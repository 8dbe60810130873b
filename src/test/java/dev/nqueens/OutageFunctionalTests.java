package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
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
 * reach the console. The cluster tests share a migrated database and two workers on it, which each
 * makes sure of itself; the other two have a database of their own. No test needs another to have
 * run first. In CI ({@code CI=true}) these tests fail, never skip, when the means to restart the
 * servers are missing.
 */
@ResourceLock(value = TestResources.BROKER, mode = ResourceAccessMode.READ_WRITE)
@Order(6) // one of the longest classes: third from the front, after the cluster class (see the pom)
class OutageFunctionalTests {

    private static final Duration LONG = Duration.ofMinutes(5);
    private static final String DATABASE = "nqueens_outage";

    @TempDir
    static Path work;

    private static OwnPostgres postgres;
    private static Map<String, String> environment;
    /** The workers of the cluster tests, on {@link #DATABASE}: see {@link #ensureWorkersAndSchema()}. */
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
    void workersStartedBeforeTheSchemaExistsWaitForItAndJoinTheFirstRun() throws Exception {
        // A database without the schema, and a queue, of this test's own: the shared workers stay out.
        String database = DATABASE + "_early";
        postgres.create(database);
        Map<String, String> early = new HashMap<>(environment);
        early.putAll(postgres.environment(database));
        early.put("NQUEENS_CLUSTER_QUEUE", "nqueens.test." + UUID.randomUUID());
        List<NqueensProcess> earlyWorkers = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                NqueensProcess worker = start(early, "worker", "--threads", "1");
                earlyWorkers.add(worker);
                worker.awaitLine(
                        line -> line.contains(" waiting for the schema: the database has no nqueens schema yet"), LONG);
            }

            // n = 13 and 14 dealt into 64 partitions each (by default one each: they count in milliseconds), so
            // that the run lasts until both workers, which look for the schema every few seconds, have joined.
            Map<String, String> manyPartitions = new HashMap<>(early);
            manyPartitions.put("NQUEENS_COUNT_PARTITIONS", "64");
            NqueensProcess.Result run = run(
                    manyPartitions,
                    "run",
                    "--sizes",
                    "1-14",
                    "--store-all-up-to",
                    "10",
                    "--store-fundamental-up-to",
                    "12");

            assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
            assertExactlyTheKnownValues(database, 1, 14);
            for (NqueensProcess worker : earlyWorkers) {
                worker.awaitLine(line -> line.contains(" started: 1 thread(s)"), LONG);
            }
            assertThat(query(
                            database,
                            "SELECT COUNT(DISTINCT worker_id) FROM partition_execution WHERE outcome = 'COMPLETED'"))
                    .as("both waiting workers took part")
                    .isEqualTo(2);
            verify(early);
        } finally {
            for (NqueensProcess worker : earlyWorkers) {
                if (worker.isAlive()) {
                    worker.terminate();
                }
            }
        }
    }

    @Test
    void aDatabaseRestartWhileTheClusterCountsCostsSecondsAndASecondRunIsRefusedMeanwhile() throws Exception {
        ensureWorkersAndSchema();
        // The workers' lines from here on count; --force: counted whatever an earlier test published.
        Map<NqueensProcess, Integer> marks = marks(workers);
        long started = System.nanoTime();
        NqueensProcess manager = start(
                environment,
                "run",
                "--sizes",
                "15-17",
                "--force",
                "--store-all-up-to",
                "0",
                "--store-fundamental-up-to",
                "0");
        awaitOnAWorker(marks, line -> line.contains("partition countPart:n17-") && line.contains(" started"), manager);
        // Once it has recorded units, the partition counts: the restart comes while the cluster counts, not while
        // a partition is still starting.
        await("units of n = 17 recorded")
                .atMost(LONG)
                .pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    if (!manager.isAlive()) {
                        throw new AssertionError(
                                "the run ended before a partition of n = 17 recorded units: " + manager.output());
                    }
                    return query(DATABASE, "SELECT COUNT(*) FROM count_unit WHERE n = 17") > 0;
                });

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
                        + (manager.isAlive() ? "" : "(ended) " + manager.errors()))
                .isEqualTo(3);
        assertThat(second.err())
                .startsWith("nqueens: another nqueens run is using this database (")
                .endsWith("; one run at a time\n");

        NqueensProcess.Result first = manager.waitFor(LONG);
        System.out.printf(
                "cluster count 15-17 with a database restart (%d ms): %.1f s%n",
                restart.toMillis(), (System.nanoTime() - started) / 1e9);
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        assertExactlyTheKnownValues(DATABASE, 15, 17);
        assertOnlyTheProductsOwnLines(first);
        verify(environment);
    }

    @Test
    void theBrokerStoppedAndStartedWhileTheClusterCountsCostsSeconds() throws Exception {
        ensureWorkersAndSchema();
        Map<NqueensProcess, Integer> marks = marks(workers);
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
        awaitOnAWorker(marks, line -> line.contains("partition countPart:n17-") && line.contains(" started"), manager);

        // The broker is started again once a worker has missed it (a worker asks it for requests whenever it is
        // free; the manager asks it only every quarter of worker-timeout), and the worker must say it is back.
        Map<NqueensProcess, Integer> beforeTheStop = marks(workers);
        long down = System.nanoTime();
        TestBroker.control("stop_app");
        NqueensProcess missing = awaitOnAWorker(beforeTheStop, line -> line.contains("the broker went away: "), null);
        Map<NqueensProcess, Integer> beforeTheStart = marks(List.of(missing));
        TestBroker.control("start_app");
        Duration away = Duration.ofNanos(System.nanoTime() - down);
        awaitOnAWorker(beforeTheStart, line -> line.contains("the broker is back after "), null);

        NqueensProcess.Result run = manager.waitFor(LONG);
        System.out.printf(
                "cluster count 17 with the broker stopped until a worker missed it (%d ms): %.1f s%n",
                away.toMillis(), (System.nanoTime() - started) / 1e9);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertExactlyTheKnownValues(DATABASE, 17, 17);
        assertOnlyTheProductsOwnLines(run);
        String said = run.out() + workers.stream().map(NqueensProcess::output).reduce("", String::concat);
        assertThat(said).contains("the broker went away: ").contains("the broker is back after ");
        verify(environment);
    }

    @Test
    void aDatabaseRestartWhileOneMachineStoresCostsSeconds() throws Exception {
        // A database of its own, migrated by the run itself: what it stores does not depend on other tests.
        String database = DATABASE + "_one_machine";
        postgres.create(database);
        Map<String, String> oneMachine = new HashMap<>(environment);
        oneMachine.putAll(postgres.environment(database));
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
        assertExactlyTheKnownValues(database, 14, 15);
        assertThat(query(database, "SELECT COUNT(*) FROM fundamental_solution WHERE n = 15"))
                .isEqualTo(Reference.counts(15).fundamental());
        assertThat(query(database, "SELECT COUNT(DISTINCT placement) FROM fundamental_solution WHERE n = 15"))
                .isEqualTo(Reference.counts(15).fundamental());
        assertOnlyTheProductsOwnLines(run);
        verify(oneMachine);
    }

    // ---- helpers ------------------------------------------------------------------------------

    /**
     * What the cluster tests need, whatever ran before them: {@link #DATABASE} migrated (by a run of
     * n = 1 on one machine) and two live workers on it (started again if one ended).
     */
    private static void ensureWorkersAndSchema() throws Exception {
        if (query(DATABASE, "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'flyway_schema_history'")
                == 0) {
            Map<String, String> oneMachine = new HashMap<>(environment);
            oneMachine.put("NQUEENS_CLUSTER_ENABLED", "false");
            NqueensProcess.Result migrated = run(oneMachine, "run", "--sizes", "1");
            assertThat(migrated.exitCode()).as(migrated.out() + migrated.err()).isZero();
        }
        workers.removeIf(worker -> !worker.isAlive());
        while (workers.size() < 2) {
            NqueensProcess worker = start(environment, "worker", "--threads", "1");
            workers.add(worker);
            worker.awaitLine(line -> line.contains(" started: 1 thread(s)"), LONG);
        }
    }

    private static NqueensProcess start(Map<String, String> environment, String... args) throws IOException {
        NqueensProcess process = NqueensProcess.start(work, environment, args);
        processes.add(process);
        return process;
    }

    private static NqueensProcess.Result run(Map<String, String> environment, String... args) throws Exception {
        return start(environment, args).waitFor(LONG);
    }

    private static void verify(Map<String, String> environment) throws Exception {
        NqueensProcess.Result verify = run(environment, "verify");
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
    }

    /** How many lines each process has printed so far: the lines after these count for a wait. */
    private static Map<NqueensProcess, Integer> marks(List<NqueensProcess> watched) {
        Map<NqueensProcess, Integer> marks = new HashMap<>();
        watched.forEach(process -> marks.put(process, process.lineCount()));
        return marks;
    }

    /**
     * Waits until one of the marked workers prints a matching line after its mark, and returns that
     * worker. With a {@code run}, fails as soon as that run has ended without one.
     */
    private static NqueensProcess awaitOnAWorker(
            Map<NqueensProcess, Integer> marks, Predicate<String> wanted, NqueensProcess run) {
        return await("the line on a worker")
                .atMost(LONG)
                .pollInterval(Duration.ofMillis(20))
                .until(
                        () -> {
                            Optional<NqueensProcess> printed = marks.entrySet().stream()
                                    .filter(mark -> mark.getKey()
                                            .lineAfter(mark.getValue(), wanted)
                                            .isPresent())
                                    .map(Map.Entry::getKey)
                                    .findFirst();
                            if (printed.isEmpty() && run != null && !run.isAlive()) {
                                throw new AssertionError("the run ended before a worker printed the line: "
                                        + run.output() + "\nthe workers: "
                                        + marks.keySet().stream()
                                                .map(NqueensProcess::output)
                                                .reduce("", String::concat));
                            }
                            return printed;
                        },
                        Optional::isPresent)
                .get();
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

    private static void assertExactlyTheKnownValues(String database, int from, int to) throws SQLException {
        for (int n = from; n <= to; n++) {
            Reference.Counts expected = Reference.counts(n);
            assertThat(query(database, "SELECT total_solutions FROM board_summary WHERE n = " + n))
                    .as("Q(%d)", n)
                    .isEqualTo(expected.total());
            assertThat(query(database, "SELECT fundamental_solutions FROM board_summary WHERE n = " + n))
                    .as("U(%d)", n)
                    .isEqualTo(expected.fundamental());
            assertThat(query(database, "SELECT rot90_classes FROM board_summary WHERE n = " + n))
                    .isEqualTo(expected.rot90());
            assertThat(query(database, "SELECT rot180_classes FROM board_summary WHERE n = " + n))
                    .isEqualTo(expected.rot180());
            assertThat(query(database, "SELECT asymmetric_classes FROM board_summary WHERE n = " + n))
                    .isEqualTo(expected.asymmetric());
        }
        assertThat(query(database, "SELECT COUNT(*) FROM count_unit"))
                .as("units are kept only until published")
                .isZero();
    }

    private static long query(String database, String sql) throws SQLException {
        try (Connection db = DriverManager.getConnection(postgres.url(database), "postgres", "postgres");
                Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
