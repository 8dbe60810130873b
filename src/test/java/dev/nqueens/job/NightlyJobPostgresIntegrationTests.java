package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StorageLimits;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The end-to-end job checks on a real PostgreSQL server (skipped, and saying so, without one),
 * plus the run lock as only PostgreSQL needs it: a row shared by processes on any machine, whose
 * holder is alive while its heartbeat moves.
 */
@EnabledIfEnvironmentVariable(
        named = TestDatabases.POSTGRES_URL_VARIABLE,
        matches = ".+",
        disabledReason = TestDatabases.POSTGRES_SKIPPED)
@Order(2) // in-process: first from the front, while the launcher makes its archive (see the pom)
@ResourceLock(TestResources.TEST_JVM)
@ExtendWith(OutputCaptureExtension.class)
class NightlyJobPostgresIntegrationTests extends AbstractNightlyJobIntegrationTests {

    @TempDir
    static Path work;

    @DynamicPropertySource
    static void freshDatabase(DynamicPropertyRegistry registry) {
        if (TestDatabases.postgresAvailable()) {
            TestDatabases.usePostgres(registry, "nqueens_job_it");
        }
        registry.add("nqueens.output-dir", () -> work.resolve("output").toString());
    }

    @Override
    Path outputFolder() {
        return work.resolve("output");
    }

    @Test
    void aRunIsRefusedWhileAnotherHoldsTheRunLockAndBeatsThenTakesItOverOnceItsHeartbeatStops(CapturedOutput said)
            throws Exception {
        long epoch = jdbc.queryForObject("SELECT epoch FROM run_lock", Long.class) + 1;
        jdbc.update(
                "UPDATE run_lock SET holder = 'db9:4242', epoch = ?, acquired_at = CURRENT_TIMESTAMP,"
                        + " heartbeat_at = CURRENT_TIMESTAMP",
                epoch);
        ScheduledExecutorService beating = Executors.newSingleThreadScheduledExecutor();
        beating.scheduleWithFixedDelay(
                () -> jdbc.update("UPDATE run_lock SET heartbeat_at = CURRENT_TIMESTAMP"),
                0,
                300,
                TimeUnit.MILLISECONDS);
        long executions = jdbc.queryForObject("SELECT COUNT(*) FROM batch_job_execution", Long.class);
        try {
            assertThatThrownBy(() -> run("1-4"))
                    .isInstanceOf(RunInProgressException.class)
                    .hasMessageStartingWith("another nqueens run is using this database (db9:4242, heartbeat ")
                    .hasMessageEndingWith(" s ago); one run at a time");
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM batch_job_execution", Long.class))
                    .isEqualTo(executions);
        } finally {
            beating.shutdownNow();
            beating.awaitTermination(10, TimeUnit.SECONDS);
        }

        NightlyRun.Outcome outcome = run("1-4");
        assertThat(outcome.completed())
                .as("the silent holder is taken for dead")
                .isTrue();
        assertThat(said.getOut())
                .as("after watching its heartbeat stand still")
                .contains("took over the run lock from db9:4242, silent for ");
        assertThat(jdbc.queryForObject("SELECT epoch FROM run_lock", Long.class))
                .isEqualTo(epoch + 1);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM run_lock WHERE holder IS NULL", Long.class))
                .as("released at the end")
                .isEqualTo(1);
        assertThat(jdbc.queryForObject(
                        "SELECT lock_epoch FROM run_control ORDER BY job_execution_id DESC LIMIT 1", Long.class))
                .isEqualTo(epoch + 1);
    }

    @Test
    void aRunWhoseLockIsTakenOverWritesNothingMoreAndSaysSo() throws Exception {
        // Another run takes the lock over as soon as this one has it (as after a database restart that
        // outlasted its heartbeat): its partitions' writes and its publication are refused.
        jdbc.update("DELETE FROM board_summary WHERE n = 11");
        ScheduledExecutorService thief = Executors.newSingleThreadScheduledExecutor();
        thief.scheduleWithFixedDelay(
                () -> jdbc.update(
                        "UPDATE run_lock SET holder = 'db9:4243', epoch = epoch + 1,"
                                + " heartbeat_at = CURRENT_TIMESTAMP WHERE holder = ?",
                        ThisProcess.id()),
                0,
                5,
                TimeUnit.MILLISECONDS);
        try {
            assertThatThrownBy(() -> nightlyRun.run(new RunRequest(
                            BoardSizes.parse("11"), new StorageLimits(11, 11), true, java.time.LocalDateTime.now())))
                    .isInstanceOf(RunLockLostException.class)
                    .hasMessageStartingWith("the run lock was taken over by db9:4243");
        } finally {
            thief.shutdownNow();
            jdbc.update("UPDATE run_lock SET holder = NULL, heartbeat_at = NULL");
        }
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM board_summary WHERE n = 11", Long.class))
                .as("not published by the run that lost the lock")
                .isZero();
    }
}
