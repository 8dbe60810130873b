package dev.nqueens.job;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * What every process working for a run needs to know about it beyond Spring Batch's tables
 * ({@code run_control}, {@code run_publication}): which process manages it and whether it is
 * alive (its heartbeat), until when it may take new work (the end of its time window), and which
 * sizes it has published. The deadline of a run is a parameter of its job execution; its manager
 * records it here, and partitions read it from the database, wherever they run.
 */
@Component
public class RunControl {

    /** The state of a run as its manager records it. */
    public record Manager(String process, Instant heartbeat, Optional<Instant> deadline) {}

    private final NamedParameterJdbcTemplate jdbc;
    private final RunLock runLock;
    /** The deadlines of runs, this process's and others' (a worker reads those of the runs it works for). */
    private final Map<Long, Optional<Instant>> deadlines = new ConcurrentHashMap<>();
    /** The job executions this process started. */
    private final Set<Long> begun = ConcurrentHashMap.newKeySet();

    /** What the time windows are read against: the system's clock, or a test's. */
    private final Clock clock;

    RunControl(JdbcTemplate jdbcTemplate, RunLock runLock, ObjectProvider<Clock> clock) {
        this.jdbc = new NamedParameterJdbcTemplate(jdbcTemplate);
        this.runLock = runLock;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Records a job execution this process starts: itself as its manager, the epoch of the run lock
     * it holds (workers write for the run only while the lock has it), and its deadline (a job parameter).
     */
    void begin(JobExecution execution) {
        Optional<Instant> deadline = RunParameters.deadlineOf(execution.getJobParameters());
        OffsetDateTime now = now();
        jdbc.update(
                """
                INSERT INTO run_control (job_execution_id, manager, started_at, heartbeat_at, deadline, lock_epoch)
                VALUES (:id, :manager, :now, CURRENT_TIMESTAMP, :deadline, :epoch)
                """,
                new MapSqlParameterSource("id", execution.getId())
                        .addValue("manager", ThisProcess.id())
                        .addValue("now", now)
                        .addValue("deadline", deadline.map(RunControl::utc).orElse(null))
                        .addValue(
                                "epoch", runLock.held().map(RunLock.Held::epoch).orElse(null)));
        deadlines.put(execution.getId(), deadline);
        begun.add(execution.getId());
    }

    /** Whether this process started (or restarted) the job execution. */
    boolean begunHere(long jobExecutionId) {
        return begun.contains(jobExecutionId);
    }

    /** The manager of a run is alive: called by it every few seconds while partitions run. */
    public void heartbeat(long jobExecutionId) {
        jdbc.update(
                "UPDATE run_control SET heartbeat_at = CURRENT_TIMESTAMP WHERE job_execution_id = :id",
                Map.of("id", jobExecutionId));
    }

    /** The manager's record of a run, if it has one. */
    public Optional<Manager> manager(long jobExecutionId) {
        return jdbc
                .query(
                        "SELECT manager, heartbeat_at, deadline FROM run_control WHERE job_execution_id = :id",
                        Map.of("id", jobExecutionId),
                        (rs, row) -> new Manager(
                                rs.getString(1),
                                rs.getObject(2, OffsetDateTime.class).toInstant(),
                                Optional.ofNullable(rs.getObject(3, OffsetDateTime.class))
                                        .map(OffsetDateTime::toInstant)))
                .stream()
                .findFirst();
    }

    /** Whether the manager of a run has shown a sign of life within {@code timeout} (by the database's clock). */
    public boolean managerAlive(long jobExecutionId, Duration timeout) {
        Long alive = jdbc.queryForObject("""
                SELECT COUNT(*) FROM run_control WHERE job_execution_id = :id
                  AND heartbeat_at > CURRENT_TIMESTAMP - :seconds * INTERVAL '1' SECOND
                """, Map.of("id", jobExecutionId, "seconds", timeout.toSeconds()), Long.class);
        return alive != null && alive > 0;
    }

    /** The end of a run's time window, if it has one (read once per run). */
    public Optional<Instant> deadline(long jobExecutionId) {
        return deadlines.computeIfAbsent(jobExecutionId, id -> manager(id).flatMap(Manager::deadline));
    }

    /** Whether a run's time window has closed: it takes no new work. */
    public boolean windowClosed(long jobExecutionId) {
        return deadline(jobExecutionId)
                .map(deadline -> !clock.instant().isBefore(deadline))
                .orElse(false);
    }

    /** Records that a run stopped because its window closed. */
    void windowClosed(long jobExecutionId, boolean closed) {
        jdbc.update(
                "UPDATE run_control SET window_closed = :closed WHERE job_execution_id = :id",
                Map.of("id", jobExecutionId, "closed", closed));
    }

    /**
     * Records that a run published size {@code n}, in the publication's transaction, which goes
     * through only while this process still holds the run lock.
     *
     * @throws RunLockLostException if another run has taken the lock over
     */
    void published(long jobExecutionId, int n) {
        runLock.checkHeld();
        jdbc.update(
                "INSERT INTO run_publication (job_execution_id, n, published_at) VALUES (:id, :n, :now)",
                Map.of("id", jobExecutionId, "n", n, "now", now()));
    }

    /** The sizes that the executions of one job instance have published. */
    Set<Integer> publishedByInstance(long jobInstanceId) {
        return new TreeSet<>(jdbc.queryForList("""
                SELECT p.n FROM run_publication p
                JOIN batch_job_execution e ON e.job_execution_id = p.job_execution_id
                WHERE e.job_instance_id = :instance
                """, Map.of("instance", jobInstanceId), Integer.class));
    }

    /** The sizes one job execution published. */
    Set<Integer> publishedBy(long jobExecutionId) {
        return new TreeSet<>(jdbc.queryForList(
                "SELECT n FROM run_publication WHERE job_execution_id = :id",
                Map.of("id", jobExecutionId),
                Integer.class));
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
