package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.InProcess;
import dev.nqueens.NqueensProcess;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import dev.nqueens.job.ThisProcess;
import dev.nqueens.query.LastRun;
import dev.nqueens.query.ReadOnlyQuery;
import dev.nqueens.query.RunHistory;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.web.NightlyDue;
import dev.nqueens.web.NightlyRunHealthIndicator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * {@code prune} on real runs' history, made old by moving their times back: it deletes exactly the
 * rows of the runs it may delete, keeps the latest run, the last completed one and an unfinished
 * one, and leaves {@code history} and the nightly health working — on H2 and on PostgreSQL.
 */
@ResourceLock(TestResources.TEST_JVM)
class PruneIntegrationTests {

    /** The tables that hold rows per run, and the column that names the run. */
    private static final Map<String, String> PER_RUN = Map.of(
            "batch_job_execution", "job_execution_id",
            "batch_job_execution_params", "job_execution_id",
            "batch_job_execution_context", "job_execution_id",
            "batch_step_execution", "job_execution_id",
            "batch_step_execution_context",
                    "(SELECT s.job_execution_id FROM batch_step_execution s"
                            + " WHERE s.step_execution_id = t.step_execution_id)",
            "run_control", "job_execution_id",
            "run_publication", "job_execution_id",
            "partition_execution",
                    "COALESCE(job_execution_id, (SELECT s.job_execution_id FROM batch_step_execution s"
                            + " WHERE s.step_execution_id = t.step_execution_id))",
            "partition_lease", "job_execution_id");

    @TempDir
    Path work;

    @Test
    void onH2() throws Exception {
        pruneOldRuns(Map.of());
    }

    @Test
    @EnabledIfEnvironmentVariable(
            named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+",
            disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void onPostgres() throws Exception {
        Map<String, String> postgres = TestDatabases.postgresEnvironment("nqueens_prune_it");
        pruneOldRuns(postgres);
        // A run holds the database: the run lock's row, taken by this process with its heartbeat going.
        try (TestDatabases.HeldRunLock held = TestDatabases.holdRunLock(postgres)) {
            NqueensProcess.Result refused = InProcess.run(work, postgres, "prune", "--older-than", "1d");
            assertThat(refused.exitCode()).as(refused.err()).isEqualTo(3);
            // The line names the holder; "one run at a time" is the wording docs/h2.md quotes.
            assertThat(refused.err()).startsWith("nqueens: ").contains(ThisProcess.id(), "one run at a time");
            assertThat(refused.err().lines()).hasSize(1);
            assertThat(refused.out()).isEmpty();
            // A dry run writes nothing and takes no lock: it answers while the run goes on.
            NqueensProcess.Result dryRun = InProcess.run(work, postgres, "prune", "--older-than", "1d", "--dry-run");
            assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
            assertThat(dryRun.out()) // the wording docs/operations.md quotes
                    .startsWith("No run that ended before ")
                    .endsWith("Dry run: nothing was deleted.\n");
        }
    }

    /**
     * A file without a password (an older build's, or a restored backup of one) gets one the first
     * time a command that writes opens it, and that command goes on with it: here {@code prune}.
     */
    @Test
    void aFileWithoutAPasswordGetsOneFromPruneWhichThenGoesOn() throws Exception {
        NqueensProcess.Result run = InProcess.run(work, "run", "--sizes", "1-4");
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path file = work.resolve("data/nqueens");
        try (Connection db = TestDatabases.openH2(file);
                Statement sql = db.createStatement()) {
            sql.execute("ALTER USER sa SET PASSWORD ''");
        }
        Files.delete(Path.of(file + ".password"));

        NqueensProcess.Result prune = InProcess.run(work, "prune", "--older-than", "1d");

        assertThat(prune.exitCode()).as(prune.out() + prune.err()).isZero();
        assertThat(TestDatabases.ownerPassword(file)).isNotEmpty();
        try (Connection db = TestDatabases.openH2(file)) {
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM board_summary"))
                    .isEqualTo(4);
        }
    }

    private void pruneOldRuns(Map<String, String> database) throws Exception {
        for (String sizes : List.of("1-4", "5", "6", "7")) {
            NqueensProcess.Result run = InProcess.run(work, database, "run", "--sizes", sizes);
            assertThat(run.exitCode()).as(run.err()).isZero();
        }
        // Runs 1-4: 1 completed long ago; 2 left running by a process that died; 3 the last completed one;
        // 4 the latest, failed. Cluster records: an old and a live worker, partitions of runs 1 and 3.
        Map<String, Map<Long, Long>> before;
        try (Connection db = TestDatabases.open(database, work);
                Statement sql = db.createStatement()) {
            age(sql, 1, 200);
            age(sql, 2, 180);
            sql.executeUpdate(
                    "UPDATE batch_job_execution SET status = 'STARTED', end_time = NULL WHERE job_execution_id = 2");
            age(sql, 3, 150);
            age(sql, 4, 100);
            sql.executeUpdate("UPDATE batch_job_execution SET status = 'FAILED', exit_code = 'FAILED'"
                    + " WHERE job_execution_id = 4");
            long stepOfOne = TestDatabases.count(
                    db, "SELECT MIN(step_execution_id) FROM batch_step_execution" + " WHERE job_execution_id = 1");
            long stepOfThree = TestDatabases.count(
                    db, "SELECT MIN(step_execution_id) FROM batch_step_execution" + " WHERE job_execution_id = 3");
            sql.executeUpdate(
                    "INSERT INTO cluster_worker (worker_id, host, pid, threads, version, started_at, heartbeat_at)"
                            + " VALUES ('old:1', 'old', 1, 2, 'x', CURRENT_TIMESTAMP - INTERVAL '120' DAY,"
                            + " CURRENT_TIMESTAMP - INTERVAL '91' DAY), ('live:2', 'live', 2, 2, 'x',"
                            + " CURRENT_TIMESTAMP - INTERVAL '120' DAY, CURRENT_TIMESTAMP)");
            sql.executeUpdate("INSERT INTO partition_execution (step_execution_id, job_execution_id, partition_name,"
                    + " worker_id, started_at, outcome) VALUES (" + stepOfOne + ", 1, 'p1', 'old:1', CURRENT_TIMESTAMP,"
                    + " 'COMPLETED'), (" + stepOfOne + ", NULL, 'p1', 'old:1', CURRENT_TIMESTAMP, 'DROPPED'), ("
                    + stepOfThree + ", 3, 'p3', 'live:2', CURRENT_TIMESTAMP, 'COMPLETED')");
            sql.executeUpdate(
                    "INSERT INTO partition_lease (step_execution_id, job_execution_id, partition_name, worker_id,"
                            + " claimed_at, expires_at) VALUES (" + stepOfOne + ", 1, 'p1', 'old:1', CURRENT_TIMESTAMP,"
                            + " CURRENT_TIMESTAMP)");
            before = rowsPerRun(sql);
        }
        assertThat(before.get("batch_step_execution")).containsOnlyKeys(1L, 2L, 3L, 4L);
        assertThat(before.get("partition_execution")).containsEntry(1L, 2L).containsEntry(3L, 1L);

        // An age without a unit (once milliseconds: every run but the kept ones), or in any other form, deletes
        // nothing.
        for (String age : List.of("90", "86400", "3M", "1y", "-5d", "5x")) {
            NqueensProcess.Result refused = InProcess.run(work, database, "prune", "--older-than", age);
            assertThat(refused.exitCode()).as(age + ": " + refused.err()).isEqualTo(2);
            assertThat(refused.err())
                    .startsWith("nqueens: ")
                    .contains("--older-than", "'" + age + "'", "s, m, h, d or w")
                    .endsWith("\n");
            assertThat(refused.err().lines()).hasSize(1);
            assertThat(refused.out()).isEmpty();
        }
        assertEverythingKept(database, before);

        // A dry run lists what the prune then deletes, and deletes nothing.
        NqueensProcess.Result dryRun = InProcess.run(work, database, "prune", "--older-than", "P90D", "--dry-run");
        assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
        assertThat(dryRun.err()).isEmpty();
        assertThat(dryRun.out()) // the wording docs/operations.md quotes
                .containsPattern("^Would delete 1 run that ended before \\S+Z: run 1 \\(the latest run,")
                .contains("Rows it would delete:")
                .endsWith("Dry run: nothing was deleted.\n");
        assertEverythingKept(database, before);

        NqueensProcess.Result prune = InProcess.run(work, database, "prune", "--older-than", "90d");
        assertThat(prune.exitCode()).as(prune.err()).isZero();
        assertThat(prune.err()).isEmpty();
        assertThat(prune.out())
                .containsPattern("^Deleted 1 run that ended before \\S+Z: run 1 \\(the latest run,")
                .contains(line("batch_job_execution", 1))
                .contains(line("batch_job_instance", 1))
                .contains(line(
                        "batch_step_execution",
                        before.get("batch_step_execution").get(1L)))
                .contains(line(
                        "batch_step_execution_context",
                        before.get("batch_step_execution_context").get(1L)))
                .contains(line(
                        "batch_job_execution_params",
                        before.get("batch_job_execution_params").get(1L)))
                .contains(line("run_control", 1))
                .contains(line("run_publication", 4))
                .contains(line("partition_execution", 2))
                .contains(line("partition_lease", 1))
                .contains(line("cluster_worker", 1));
        assertThat(rowLines(dryRun.out())).hasSize(11).isEqualTo(rowLines(prune.out()));

        try (Connection db = TestDatabases.open(database, work);
                Statement sql = db.createStatement()) {
            Map<String, Map<Long, Long>> after = rowsPerRun(sql);
            for (String table : PER_RUN.keySet()) {
                Map<Long, Long> kept = new TreeMap<>(before.get(table));
                kept.remove(1L);
                assertThat(after.get(table)).as(table).isEqualTo(kept);
            }
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM batch_job_instance"))
                    .isEqualTo(3);
            assertThat(strings(sql, "SELECT worker_id FROM cluster_worker")).containsExactly("live:2");
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM board_summary"))
                    .as("the results")
                    .isEqualTo(7);
        }

        NqueensProcess.Result history = InProcess.run(work, database, "history", "--format", "csv");
        assertThat(history.exitCode()).as(history.err()).isZero();
        assertThat(history.out().lines().skip(1).map(line -> line.substring(0, line.indexOf(','))))
                .containsExactly("4", "3", "2");
        assertNightlyHealth(database);

        NqueensProcess.Result again = InProcess.run(work, database, "prune", "--older-than", "1w");
        assertThat(again.exitCode()).isZero();
        assertThat(again.out())
                .startsWith("No run that ended before ")
                .contains(line("batch_job_execution", 0))
                .contains(line("cluster_worker", 0));
    }

    private void assertEverythingKept(Map<String, String> database, Map<String, Map<Long, Long>> before)
            throws SQLException {
        try (Connection db = TestDatabases.open(database, work);
                Statement sql = db.createStatement()) {
            assertThat(rowsPerRun(sql)).isEqualTo(before);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM batch_job_instance"))
                    .isEqualTo(4);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM cluster_worker"))
                    .isEqualTo(2);
        }
    }

    /** The table and count lines of a prune's report. */
    private static List<String> rowLines(String report) {
        return report.lines().filter(line -> line.startsWith("  ")).toList();
    }

    /** The latest run failed: DOWN for that, with the last completed run's end (run 3's, 150 days ago). */
    private void assertNightlyHealth(Map<String, String> database) throws SQLException {
        try (Connection db = TestDatabases.open(database, work)) {
            SingleConnectionDataSource one = new SingleConnectionDataSource(db, true);
            RunHistory runs = new RunHistory(new ReadOnlyQuery(one));
            Optional<LastRun> last = runs.lastRun();
            assertThat(last).map(LastRun::run).hasValue(4L);
            assertThat(last.get().lastCompleted())
                    .hasValue(runs.lastRuns(3).get(1).ended());
            Health health = NightlyRunHealthIndicator.of(
                    last,
                    runs.databaseCreated(),
                    Optional.empty(),
                    NightlyDue.of(new NqueensProperties.Schedule("0 2 * * *", "", "UTC", true)),
                    Instant.now());
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails())
                    .containsEntry("status", "FAILED")
                    .containsEntry("reason", "the run failed")
                    .containsKey("lastCompleted");
        }
    }

    private static String line(String table, long rows) {
        return String.format("  %-29s %9d%n", table, rows);
    }

    /** Moves a run's times {@code days} back, as if it had run then. */
    private static void age(Statement sql, long run, int days) throws SQLException {
        String back = " - INTERVAL '" + days + "' DAY";
        sql.executeUpdate(
                "UPDATE batch_job_execution SET create_time = create_time" + back + ", start_time = start_time"
                        + back + ", end_time = end_time" + back + ", last_updated = last_updated" + back
                        + " WHERE job_execution_id = " + run);
        sql.executeUpdate(
                "UPDATE batch_step_execution SET create_time = create_time" + back + ", start_time = start_time"
                        + back + ", end_time = end_time" + back + ", last_updated = last_updated" + back
                        + " WHERE job_execution_id = " + run);
        sql.executeUpdate("UPDATE run_control SET started_at = started_at" + back + ", heartbeat_at = heartbeat_at"
                + back + " WHERE job_execution_id = " + run);
        sql.executeUpdate(
                "UPDATE run_publication SET published_at = published_at" + back + " WHERE job_execution_id = " + run);
    }

    /** Per table, the number of rows of each run. */
    private static Map<String, Map<Long, Long>> rowsPerRun(Statement sql) throws SQLException {
        Map<String, Map<Long, Long>> rows = new TreeMap<>();
        for (Map.Entry<String, String> table : PER_RUN.entrySet()) {
            Map<Long, Long> perRun = new TreeMap<>();
            try (ResultSet result = sql.executeQuery("SELECT run, COUNT(*) FROM (SELECT " + table.getValue()
                    + " AS run FROM " + table.getKey() + " t) r GROUP BY run")) {
                while (result.next()) {
                    perRun.put(result.getLong(1), result.getLong(2));
                }
            }
            rows.put(table.getKey(), perRun);
        }
        return rows;
    }

    private static List<String> strings(Statement sql, String query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet result = sql.executeQuery(query)) {
            while (result.next()) {
                values.add(result.getString(1));
            }
        }
        return values;
    }
}
