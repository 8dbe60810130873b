package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.nqueens.job.LostDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The cluster as an operator runs it, on one machine: real worker processes and a real manager
 * (the packaged jar, separate JVMs), a real RabbitMQ broker and a real PostgreSQL server, with
 * workers and managers killed in the middle. Every run must end with exactly the published counts,
 * each partition completed once and each work unit counted once.
 */
@ResourceLock(value = TestResources.BROKER, mode = ResourceAccessMode.READ)
@EnabledIf(value = "dev.nqueens.TestBroker#available", disabledReason = TestBroker.SKIPPED)
@Order(4) // one of the longest classes: first from the front after the in-process job tests (see the pom)
class ClusterFunctionalTests {

    private static final Duration LONG = Duration.ofMinutes(4);
    /** The database a run migrated once for the class, which each test's database is copied from. */
    private static final String MIGRATED = "nqueens_cluster_migrated";

    private static boolean migrated;

    @TempDir
    Path work;

    private final List<NqueensProcess> processes = new ArrayList<>();
    private Map<String, String> environment;
    private String databaseUrl;
    private String databaseName;

    @BeforeEach
    void freshDatabaseQueueAndSettings(TestInfo test) throws IOException {
        String name = "nqueens_cluster_"
                + test.getTestMethod()
                        .orElseThrow()
                        .getName()
                        .toLowerCase()
                        .replaceAll("[^a-z]", "")
                        .substring(0, 20);
        databaseName = name;
        environment = new HashMap<>(TestDatabases.postgresEnvironment(name));
        environment.putAll(TestBroker.environment());
        databaseUrl = environment.get("SPRING_DATASOURCE_URL");
        Files.createDirectories(work.resolve("config"));
        Files.writeString(work.resolve("config/application.yml"), """
                nqueens:
                  progress-interval: 1s
                  cluster:
                    enabled: true
                    worker-timeout: 8s
                    queue: nqueens.test.%s
                """.formatted(UUID.randomUUID()));
    }

    @AfterEach
    void stopEveryProcess() throws InterruptedException {
        boolean left = false;
        for (NqueensProcess process : processes) {
            if (process.isAlive()) {
                // A worker or manager still running at the end: its output says why, if the test failed.
                NqueensProcess.Result output = process.kill();
                System.out.println("--- output of a process still running at the end of the test:\n" + output.out()
                        + output.err());
                left = true;
            }
        }
        if (left) {
            printRows("SELECT job_execution_id, status, exit_code, exit_message, start_time, end_time, last_updated,"
                    + " version FROM batch_job_execution ORDER BY job_execution_id");
            printRows("SELECT step_execution_id, job_execution_id, step_name, status, exit_code, end_time, version"
                    + " FROM batch_step_execution ORDER BY step_execution_id");
            printRows("SELECT * FROM partition_execution ORDER BY 1");
        }
    }

    /** For the diagnosis of a failed test: every row of a query, one line each. */
    private void printRows(String sql) {
        try (java.sql.Connection db = DriverManager.getConnection(databaseUrl, "postgres", "postgres");
                Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            System.out.println("--- " + sql);
            while (rows.next()) {
                StringBuilder line = new StringBuilder();
                for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                    line.append(column == 1 ? "" : " | ").append(rows.getString(column));
                }
                System.out.println(line);
            }
        } catch (SQLException e) {
            System.out.println("--- " + sql + ": " + e.getMessage());
        }
    }

    @Test
    void twoWorkersCountExactlyAndAKilledWorkersPartitionIsFinishedByTheOther() throws Exception {
        migrate();
        List<NqueensProcess> both = workers(2);
        NqueensProcess doomed = both.get(0);
        NqueensProcess survivor = both.get(1);
        NqueensProcess manager =
                start("run", "--sizes", "1-17", "--store-all-up-to", "12", "--store-fundamental-up-to", "14");
        doomed.awaitLine(line -> line.contains("partition countPart:n17-") && line.contains("started"), LONG);
        assertThat(doomed.kill().exitCode()).isEqualTo(137);

        NqueensProcess.Result run = manager.waitFor(LONG);

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("lost its worker").contains("sent again");
        assertExactlyTheKnownValues(1, 17);
        long runId = query("SELECT MAX(job_execution_id) FROM batch_job_execution");
        assertThat(query("SELECT COUNT(DISTINCT worker_id) FROM partition_execution WHERE outcome = 'COMPLETED'"
                        + " AND job_execution_id = " + runId))
                .as("both workers executed partitions")
                .isEqualTo(2);
        assertThat(query("SELECT COUNT(*) FROM partition_execution WHERE outcome = 'LEASE_LOST'"))
                .as("the killed worker's partition")
                .isPositive();
        assertEachPartitionCompletedOnceAndEachUnitCountedOnce(runId, 15, 17);
        assertThat(survivor.terminate().exitCode()).isZero();
    }

    @Test
    void aKilledManagerIsResumedByTheNextRunAndTheRequestsItLeftAreDropped() throws Exception {
        migrate();
        List<NqueensProcess> both = workers(2);
        NqueensProcess first = both.get(0);
        NqueensProcess second = both.get(1);
        // n = 18 first (largest first): 12 s of one core on the quick compiler, so that requests are still
        // waiting when the manager dies (n = 16-17 took 2 s once units were stored in batches: none were left).
        NqueensProcess manager = start("run", "--sizes", "17-18");
        manager.awaitLine(line -> NqueensProcess.showsProgress(line, 18), LONG);
        assertThat(manager.kill().exitCode()).isEqualTo(137);
        long killedRun = query("SELECT MAX(job_execution_id) FROM batch_job_execution");

        NqueensProcess.Result resumed = run("run", "--sizes", "17-18");

        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
        assertThat(resumed.out()).contains("Restarted the unfinished run");
        assertExactlyTheKnownValues(17, 18);
        assertThat(query("SELECT COUNT(*) FROM partition_execution WHERE outcome = 'DROPPED' AND job_execution_id = "
                        + killedRun))
                .as("the dead run's requests left on the queue")
                .isPositive();
        assertThat(query("""
                SELECT COUNT(*) FROM (SELECT partition_name FROM partition_execution WHERE outcome = 'COMPLETED'
                GROUP BY partition_name HAVING COUNT(*) > 1) twice""")).as("no partition executed twice").isZero();

        // A stale request replayed onto the queue: dropped, not executed (one worker left to take it).
        assertThat(second.terminate().exitCode()).isZero();
        long finished =
                query("SELECT MIN(step_execution_id) FROM batch_step_execution WHERE step_name LIKE 'countPart:%'"
                        + " AND status = 'COMPLETED'");
        replay(finished);
        first.awaitLine(line -> line.contains("dropped the request for step execution " + finished), LONG);
        assertThat(query("SELECT COUNT(*) FROM partition_execution WHERE outcome = 'COMPLETED' AND step_execution_id = "
                        + finished))
                .isEqualTo(1);
        assertThat(first.terminate().exitCode()).isZero();
    }

    @Test
    void withoutALiveWorkerTheRunFailsWithinTheTimeoutAndAStoppedWorkerHandsBackItsPartition() throws Exception {
        migrate();
        NqueensProcess.Result alone = run("run", "--sizes", "14");
        assertThat(alone.exitCode()).isEqualTo(1);
        assertThat(alone.err())
                .startsWith("nqueens: the run failed: no live worker: none has ever registered"
                        + " (start `./nqueens worker`");
        assertThat(alone.err().lines()).as("one line").hasSize(1);

        // The worker's first partition loses the database (the server ends its session) after the worker
        // claimed it and before it could record the start: the worker hands it back once the database
        // answers, and the manager sends it again when it finds it unclaimed, without waiting for the
        // lease to run out (worker-timeout: a minute by default). Sent again, it loses the database as
        // Spring Batch marks it started, before its listeners run: it ends as a partition that lost the
        // database, and the run goes on with it from its last commit instead of failing.
        execute("""
                CREATE SEQUENCE partition_starts;
                CREATE FUNCTION lose_the_database_once() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF NEW.outcome = 'RUNNING' AND nextval('partition_starts') = 1 THEN
                    PERFORM pg_terminate_backend(pg_backend_pid());
                  END IF;
                  RETURN NEW;
                END $$;
                CREATE TRIGGER lose_the_database_once BEFORE INSERT ON partition_execution
                  FOR EACH ROW EXECUTE FUNCTION lose_the_database_once();
                CREATE SEQUENCE step_starts;
                CREATE FUNCTION lose_the_database_as_a_step_starts() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF NEW.status = 'STARTED' AND OLD.status <> 'STARTED' AND NEW.step_name LIKE '%:n%'
                      AND nextval('step_starts') = 1 THEN
                    PERFORM pg_terminate_backend(pg_backend_pid());
                  END IF;
                  RETURN NEW;
                END $$;
                CREATE TRIGGER lose_the_database_as_a_step_starts BEFORE UPDATE ON batch_step_execution
                  FOR EACH ROW EXECUTE FUNCTION lose_the_database_as_a_step_starts();
                """);
        NqueensProcess first = countingWorker();
        NqueensProcess.Result resumed = run("run", "--sizes", "14");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
        assertThat(first.output()).contains("the database went away before it started; handed back");
        assertThat(query("SELECT COUNT(*) FROM batch_step_execution WHERE step_name LIKE '%:n14%'"
                        + " AND exit_code = '" + LostDatabase.EXIT_CODE + "'"))
                .as("the partition that lost the database as it started")
                .isEqualTo(1);
        assertThat(resumed.out())
                .contains("was not claimed and its request is not in the queue: sent again")
                .doesNotContain("no lease renewal");
        assertExactlyTheKnownValues(14, 14);

        // SIGTERM in the middle of a partition (n = 18 in one partition, seconds of one core), once it
        // has recorded some of its units: the worker that took it hands
        // it back and exits 0; the other, live all along (a run without one fails after worker-timeout),
        // goes on with it from the units it recorded.
        Files.writeString(
                work.resolve("config/application.yml"),
                Files.readString(work.resolve("config/application.yml"))
                        .replace("  cluster:\n", "  count:\n    partitions: 1\n  cluster:\n"));
        NqueensProcess second = countingWorker();
        NqueensProcess manager = start("run", "--sizes", "18");
        Predicate<String> startsN18 = line -> line.contains("partition countPart:n18-") && line.contains("started");
        NqueensProcess taker = await("a worker starting the partition of n = 18")
                .atMost(LONG)
                .pollInterval(Duration.ofMillis(10))
                .until(
                        () -> Stream.of(first, second)
                                .filter(worker -> worker.lineAfter(0, startsN18).isPresent())
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
        await("a unit of n = 18 recorded")
                .atMost(LONG)
                .pollInterval(Duration.ofMillis(10))
                .until(() -> query("SELECT COUNT(*) FROM count_unit WHERE n = 18") > 0);
        NqueensProcess.Result stopped = taker.terminate();
        assertThat(stopped.exitCode()).isZero();
        assertThat(stopped.out()).contains("stopped: handed back 1 partition(s) in progress");
        assertThat(query("SELECT COUNT(*) FROM count_unit WHERE n = 18"))
                .as("units recorded before the hand-back")
                .isPositive()
                .isLessThan(dev.nqueens.count.CountingEngine.workUnits(18).size());
        NqueensProcess.Result run = manager.waitFor(LONG);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("was handed back: sent again");
        assertExactlyTheKnownValues(18, 18);
        assertThat(query("SELECT COUNT(*) FROM partition_execution WHERE outcome = 'HANDED_BACK'"))
                .isEqualTo(1);
        assertEachPartitionCompletedOnceAndEachUnitCountedOnce(
                query("SELECT MAX(job_execution_id) FROM batch_job_execution"), 18, 18);
    }

    @Test
    void aSizeCountedTwiceIsPublishedOnlyFromTwoDifferentWorkersThatAgree() throws Exception {
        migrate();
        Files.writeString(
                work.resolve("config/application.yml"),
                Files.readString(work.resolve("config/application.yml")) + "    cross-check: all\n");
        workers(2);
        NqueensProcess.Result run =
                run("run", "--sizes", "13-15", "--store-all-up-to", "0", "--store-fundamental-up-to", "0");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertExactlyTheKnownValues(13, 15);
        assertThat(run.out()).contains("work units (each counted twice)");
        assertThat(query("""
                SELECT COUNT(*) FROM partition_execution a JOIN partition_execution b
                  ON b.partition_name = a.partition_name || '-r2' AND a.outcome = 'COMPLETED' AND b.outcome = 'COMPLETED'
                WHERE a.partition_name LIKE 'countPart:%' AND a.worker_id = b.worker_id""")).as("same worker twice").isZero();
        assertThat(query("SELECT COUNT(*) FROM partition_execution WHERE outcome = 'COMPLETED'"
                        + " AND partition_name LIKE 'countPart:%-r2'"))
                .isPositive();

        // In cluster mode the broker joins serve's health checks.
        int port = ServedResults.freePort();
        NqueensProcess serve = start("serve", "--port", String.valueOf(port));
        serve.awaitLine(line -> line.startsWith("Serving http://"), LONG);
        java.net.http.HttpResponse<String> health = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(health.body()).contains("\"rabbit\":{\"status\":\"UP\"");
        // Stopped as an operator stops it, not killed with the workers after the test: Tomcat's scratch
        // folder (web.TomcatScratch) goes with it.
        NqueensProcess.Result stopped = serve.terminate();
        assertThat(stopped.out()).as(stopped.err()).contains("serve stopped.");
    }

    @Test
    void aWorkerOfAnotherSchemaRefusesAndWrongBrokerCredentialsGetExitFour() throws Exception {
        migrate();
        execute("""
                INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum,
                    installed_by, execution_time, success)
                SELECT MAX(installed_rank) + 1, '999', 'from the future', 'SQL', 'V999__x.sql', 0, 'test', 0, TRUE
                FROM flyway_schema_history""");
        NqueensProcess.Result worker = run("worker");
        assertThat(worker.exitCode()).isEqualTo(1);
        assertThat(worker.err()).startsWith("nqueens: the database schema is at version 999, newer than this build");
        assertThat(worker.err().lines()).hasSize(1);

        environment.put("SPRING_RABBITMQ_PASSWORD", "wrong");
        NqueensProcess.Result refused = run("worker");
        assertThat(refused.exitCode()).isEqualTo(4);
        assertThat(refused.err())
                .startsWith("nqueens: the broker amqp://")
                .contains("refused the login of user")
                .doesNotContain("wrong");
        assertThat(refused.err().lines()).hasSize(1);
    }

    // ---- helpers ------------------------------------------------------------------------------

    /**
     * Gives the test a database with the schema, created as an operator does (only a manager
     * migrates: a run without the cluster), once for the class, in a database of its own that each
     * test then gets a copy of.
     */
    private void migrate() throws Exception {
        synchronized (ClusterFunctionalTests.class) {
            if (!migrated) {
                Map<String, String> local = new HashMap<>(environment);
                local.putAll(TestDatabases.postgresEnvironment(MIGRATED));
                local.put("NQUEENS_CLUSTER_ENABLED", "false");
                NqueensProcess.Result result = NqueensProcess.run(
                        Files.createDirectories(work.resolve("migrate")), local, "run", "--sizes", "1");
                assertThat(result.exitCode()).as(result.err()).isZero();
                migrated = true;
            }
        }
        TestDatabases.copyPostgres(MIGRATED, databaseName);
    }

    /** A worker with the product's JVM options (it counts n = 18 alone), once it has started. */
    private NqueensProcess countingWorker() throws Exception {
        return workers(1, NqueensProcess.withProductOptions(environment)).get(0);
    }

    /** Starts {@code count} workers at once and waits until each has started. */
    private List<NqueensProcess> workers(int count) throws Exception {
        return workers(count, environment);
    }

    private List<NqueensProcess> workers(int count, Map<String, String> environment) throws Exception {
        List<NqueensProcess> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            NqueensProcess worker = NqueensProcess.start(work, environment, "worker", "--threads", "1");
            processes.add(worker);
            started.add(worker);
        }
        for (NqueensProcess worker : started) {
            worker.awaitLine(line -> line.contains(" started: 1 thread(s)"), LONG);
        }
        return started;
    }

    private NqueensProcess start(String... args) throws IOException {
        NqueensProcess process = NqueensProcess.start(work, environment, args);
        processes.add(process);
        return process;
    }

    private NqueensProcess.Result run(String... args) throws Exception {
        return start(args).waitFor(LONG);
    }

    /** Puts a request for {@code stepExecutionId} on the queue, as a dead run would have left it. */
    private void replay(long stepExecutionId) throws Exception {
        String queue = Files.readString(work.resolve("config/application.yml"))
                .lines()
                .filter(line -> line.trim().startsWith("queue:"))
                .findFirst()
                .orElseThrow()
                .split(":", 2)[1]
                .trim();
        try (Connection connection = TestBroker.connectionFactory().newConnection();
                Channel channel = connection.createChannel()) {
            channel.basicPublish(
                    "",
                    queue,
                    new AMQP.BasicProperties.Builder()
                            .type("nqueens.StepExecutionRequest")
                            .contentType("application/json")
                            .build(),
                    ("{\"step\":\"countPart\",\"stepExecutionId\":" + stepExecutionId + "}")
                            .getBytes(StandardCharsets.UTF_8));
        }
    }

    private void assertExactlyTheKnownValues(int from, int to) throws SQLException {
        for (int n = from; n <= to; n++) {
            Reference.Counts expected = Reference.counts(n);
            assertThat(query("SELECT total_solutions FROM board_summary WHERE n = " + n))
                    .as("n=%d", n)
                    .isEqualTo(expected.total());
            assertThat(query("SELECT fundamental_solutions FROM board_summary WHERE n = " + n))
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

    /**
     * From the job repository: every count partition of the run completed, and the units they
     * wrote add up to the units of the sizes (nothing counted twice, nothing missing).
     */
    private void assertEachPartitionCompletedOnceAndEachUnitCountedOnce(long runId, int from, int to)
            throws SQLException {
        assertThat(query("SELECT COUNT(*) FROM batch_step_execution WHERE job_execution_id = " + runId
                        + " AND step_name LIKE 'countPart:%' AND status <> 'COMPLETED'"))
                .isZero();
        long units = 0;
        for (int size = from; size <= to; size++) {
            units += dev.nqueens.count.CountingEngine.workUnits(size).size();
        }
        assertThat(query("SELECT SUM(write_count) FROM batch_step_execution WHERE job_execution_id = " + runId
                        + " AND step_name LIKE 'countPart:%'"))
                .isEqualTo(units);
    }

    private long query(String sql) throws SQLException {
        try (java.sql.Connection db = DriverManager.getConnection(databaseUrl, "postgres", "postgres");
                Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private void execute(String sql) throws SQLException {
        try (java.sql.Connection db = DriverManager.getConnection(databaseUrl, "postgres", "postgres");
                Statement statement = db.createStatement()) {
            statement.execute(sql);
        }
    }
}
