package dev.nqueens.cluster;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The cluster's own tables ({@code cluster_worker}, {@code partition_lease},
 * {@code partition_execution}), on PostgreSQL, timed by the database server's clock so that the
 * machines' clocks need not agree.
 */
@Repository
class ClusterRecords {

    /** A worker as it registered, and its last heartbeat. */
    record Worker(
            String id,
            String host,
            long pid,
            int threads,
            String version,
            OffsetDateTime startedAt,
            OffsetDateTime heartbeatAt,
            boolean alive) {}

    /** The worker heard of last: its id and how long ago, by the database's clock. */
    record LastHeard(String workerId, long secondsAgo) {}

    /** A partition a worker holds. */
    record Lease(long stepExecutionId, long jobExecutionId, String partition, String workerId, boolean expired) {}

    private final NamedParameterJdbcTemplate jdbc;

    ClusterRecords(JdbcTemplate jdbcTemplate) {
        this.jdbc = new NamedParameterJdbcTemplate(jdbcTemplate);
    }

    // ---- workers -----------------------------------------------------------------------------

    void register(String workerId, String host, long pid, int threads, String version) {
        jdbc.update("DELETE FROM cluster_worker WHERE worker_id = :id", Map.of("id", workerId));
        jdbc.update(
                """
                INSERT INTO cluster_worker (worker_id, host, pid, threads, version, started_at, heartbeat_at)
                VALUES (:id, :host, :pid, :threads, :version, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)
                """,
                new MapSqlParameterSource("id", workerId)
                        .addValue("host", host)
                        .addValue("pid", pid)
                        .addValue("threads", threads)
                        .addValue("version", version));
    }

    /**
     * The worker is alive; the leases of the partitions it is running are extended to {@code lease}
     * from now. Only those: a lease it holds on a partition it does not run (claimed, and then the
     * request was lost with the broker) lapses, and the manager sends the partition again.
     */
    void heartbeat(String workerId, Duration lease, Collection<Long> running) {
        jdbc.update(
                "UPDATE cluster_worker SET heartbeat_at = CURRENT_TIMESTAMP WHERE worker_id = :id",
                Map.of("id", workerId));
        if (running.isEmpty()) {
            return;
        }
        jdbc.update("""
                UPDATE partition_lease SET expires_at = CURRENT_TIMESTAMP + :seconds * INTERVAL '1 second'
                WHERE worker_id = :id AND expires_at > CURRENT_TIMESTAMP AND step_execution_id IN (:running)
                """, Map.of("id", workerId, "seconds", lease.toSeconds(), "running", List.copyOf(running)));
    }

    void stopped(String workerId) {
        jdbc.update(
                "UPDATE cluster_worker SET stopped_at = CURRENT_TIMESTAMP WHERE worker_id = :id",
                Map.of("id", workerId));
    }

    /** Every worker seen within {@code recent}, alive ones first. */
    List<Worker> workers(Duration timeout, Duration recent) {
        return jdbc.query(
                """
                SELECT worker_id, host, pid, threads, version, started_at, heartbeat_at,
                       (stopped_at IS NULL AND heartbeat_at > CURRENT_TIMESTAMP - :timeout * INTERVAL '1 second') AS alive
                FROM cluster_worker
                WHERE heartbeat_at > CURRENT_TIMESTAMP - :recent * INTERVAL '1 second'
                ORDER BY alive DESC, host, pid
                """,
                Map.of("timeout", timeout.toSeconds(), "recent", recent.toSeconds()),
                (rs, row) -> new Worker(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getLong(3),
                        rs.getInt(4),
                        rs.getString(5),
                        rs.getObject(6, OffsetDateTime.class),
                        rs.getObject(7, OffsetDateTime.class),
                        rs.getBoolean(8)));
    }

    /** The threads of the workers alive now. */
    int liveThreads(Duration timeout) {
        Integer threads = jdbc.queryForObject("""
                SELECT COALESCE(SUM(threads), 0) FROM cluster_worker
                WHERE stopped_at IS NULL AND heartbeat_at > CURRENT_TIMESTAMP - :timeout * INTERVAL '1 second'
                """, Map.of("timeout", timeout.toSeconds()), Integer.class);
        return threads == null ? 0 : threads;
    }

    /** The worker heard of last, if any worker ever registered. */
    Optional<LastHeard> lastHeard() {
        return jdbc
                .query("""
                SELECT worker_id, EXTRACT(EPOCH FROM (CURRENT_TIMESTAMP - heartbeat_at)) FROM cluster_worker
                ORDER BY heartbeat_at DESC LIMIT 1
                """, Map.of(), (rs, row) -> new LastHeard(rs.getString(1), Math.round(rs.getDouble(2))))
                .stream()
                .findFirst();
    }

    // ---- leases ------------------------------------------------------------------------------

    /**
     * The condition a claim and each write under it add: the partition's run (job execution
     * {@code partition_lease.job_execution_id} or {@code :job}) was started under the run lock's
     * epoch, and its manager holds the lock still. The lock row is key-share-locked until the
     * transaction ends, so a run that takes the lock over waits for the writes in flight.
     */
    private static final String RUN_HOLDS_THE_LOCK = """
            EXISTS (SELECT 1 FROM run_control c JOIN run_lock l ON l.epoch = c.lock_epoch
                    WHERE c.job_execution_id = %s AND l.holder IS NOT NULL FOR KEY SHARE OF l)""";

    /**
     * Claims a partition for {@code workerId} until {@code lease} from now, unless another worker
     * holds an unexpired lease on it, or its run's manager has lost the run lock.
     *
     * @return true if this worker holds the lease now
     */
    boolean claim(long stepExecutionId, long jobExecutionId, String partition, String workerId, Duration lease) {
        List<String> holder = jdbc.queryForList(
                """
                INSERT INTO partition_lease (step_execution_id, job_execution_id, partition_name, worker_id, claimed_at,
                    expires_at)
                SELECT :step, :job, :partition, :worker, CURRENT_TIMESTAMP,
                    CURRENT_TIMESTAMP + :seconds * INTERVAL '1 second'
                WHERE\s""" + RUN_HOLDS_THE_LOCK.formatted(":job") + """

                ON CONFLICT (step_execution_id) DO UPDATE
                    SET worker_id = EXCLUDED.worker_id, claimed_at = EXCLUDED.claimed_at, expires_at = EXCLUDED.expires_at
                    WHERE partition_lease.expires_at <= CURRENT_TIMESTAMP
                RETURNING worker_id
                """,
                new MapSqlParameterSource("step", stepExecutionId)
                        .addValue("job", jobExecutionId)
                        .addValue("partition", partition)
                        .addValue("worker", workerId)
                        .addValue("seconds", lease.toSeconds()),
                String.class);
        return holder.size() == 1 && workerId.equals(holder.get(0));
    }

    /**
     * Extends the lease before a write, in the write's transaction (the row stays locked until it
     * commits): true only if {@code workerId} still holds it unexpired, its run is still going, and
     * the run's manager still holds the run lock.
     */
    boolean renewBeforeWrite(long stepExecutionId, String workerId, Duration lease) {
        return jdbc.update(
                        """
                UPDATE partition_lease SET expires_at = CURRENT_TIMESTAMP + :seconds * INTERVAL '1 second'
                WHERE step_execution_id = :step AND worker_id = :worker AND expires_at > CURRENT_TIMESTAMP
                  AND EXISTS (SELECT 1 FROM batch_job_execution j WHERE j.job_execution_id = partition_lease.job_execution_id
                              AND j.status IN ('STARTING', 'STARTED', 'STOPPING'))
                  AND\s""" + RUN_HOLDS_THE_LOCK.formatted("partition_lease.job_execution_id") + """

                """,
                        Map.of("step", stepExecutionId, "worker", workerId, "seconds", lease.toSeconds()))
                == 1;
    }

    /** The lease on a partition, if any (expired or not). */
    Optional<Lease> lease(long stepExecutionId) {
        return jdbc
                .query(
                        """
                SELECT step_execution_id, job_execution_id, partition_name, worker_id,
                       expires_at <= CURRENT_TIMESTAMP FROM partition_lease WHERE step_execution_id = :step
                """,
                        Map.of("step", stepExecutionId),
                        (rs, row) -> new Lease(
                                rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getBoolean(5)))
                .stream()
                .findFirst();
    }

    /** The leases of one run's partitions. */
    List<Lease> leases(long jobExecutionId) {
        return jdbc.query(
                """
                SELECT step_execution_id, job_execution_id, partition_name, worker_id,
                       expires_at <= CURRENT_TIMESTAMP FROM partition_lease WHERE job_execution_id = :job
                """,
                Map.of("job", jobExecutionId),
                (rs, row) ->
                        new Lease(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getBoolean(5)));
    }

    /** Every unexpired lease, for {@code cluster}. */
    List<Lease> activeLeases() {
        return jdbc.query(
                """
                SELECT step_execution_id, job_execution_id, partition_name, worker_id, FALSE
                FROM partition_lease WHERE expires_at > CURRENT_TIMESTAMP ORDER BY worker_id, partition_name
                """,
                Map.of(),
                (rs, row) ->
                        new Lease(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getBoolean(5)));
    }

    /**
     * Ends every lease on a run's partitions: the run is being marked failed, to be restarted. The
     * update waits for the writes in flight under those leases (each holds its lease's row until it
     * commits); after it, none of them can write again.
     */
    void expireLeases(long jobExecutionId) {
        jdbc.update("""
                UPDATE partition_lease SET expires_at = CURRENT_TIMESTAMP
                WHERE job_execution_id = :job AND expires_at > CURRENT_TIMESTAMP
                """, Map.of("job", jobExecutionId));
    }

    /** Ends a worker's lease at once (done, or handed back): the partition can be taken by another worker. */
    void release(long stepExecutionId, String workerId) {
        jdbc.update(
                "DELETE FROM partition_lease WHERE step_execution_id = :step AND worker_id = :worker",
                Map.of("step", stepExecutionId, "worker", workerId));
    }

    /** Whether {@code workerId} holds an unexpired lease on one of these partitions. */
    boolean holdsAny(String workerId, List<String> partitions) {
        if (partitions.isEmpty()) {
            return false;
        }
        Long held = jdbc.queryForObject(
                """
                SELECT COUNT(*) FROM partition_lease
                WHERE worker_id = :worker AND partition_name IN (:partitions) AND expires_at > CURRENT_TIMESTAMP
                """, new MapSqlParameterSource("worker", workerId).addValue("partitions", partitions), Long.class);
        return held != null && held > 0;
    }

    // ---- history -----------------------------------------------------------------------------

    /** Records the start of an attempt (or a dropped request); returns its id. */
    long started(
            long stepExecutionId,
            Long jobExecutionId,
            String partition,
            String workerId,
            String outcome,
            String detail) {
        return jdbc.queryForObject(
                """
                INSERT INTO partition_execution (step_execution_id, job_execution_id, partition_name, worker_id,
                    started_at, ended_at, outcome, detail)
                VALUES (:step, :job, :partition, :worker, CURRENT_TIMESTAMP,
                    CASE WHEN :outcome = 'RUNNING' THEN NULL ELSE CURRENT_TIMESTAMP END, :outcome, :detail)
                RETURNING attempt_id
                """,
                new MapSqlParameterSource("step", stepExecutionId)
                        .addValue("job", jobExecutionId)
                        .addValue("partition", partition)
                        .addValue("worker", workerId)
                        .addValue("outcome", outcome)
                        .addValue("detail", shorten(detail)),
                Long.class);
    }

    /** A worker's attempts at a partition that it will never end itself (it died): LEASE_LOST. */
    void abandonAttempts(long stepExecutionId, String workerId, String detail) {
        jdbc.update("""
                UPDATE partition_execution SET ended_at = CURRENT_TIMESTAMP, outcome = 'LEASE_LOST', detail = :detail
                WHERE step_execution_id = :step AND worker_id = :worker AND outcome = 'RUNNING'
                """, Map.of("step", stepExecutionId, "worker", workerId, "detail", detail));
    }

    void ended(long attemptId, String outcome, String detail) {
        jdbc.update(
                """
                UPDATE partition_execution SET ended_at = CURRENT_TIMESTAMP, outcome = :outcome, detail = :detail
                WHERE attempt_id = :id
                """,
                new MapSqlParameterSource("id", attemptId)
                        .addValue("outcome", outcome)
                        .addValue("detail", shorten(detail)));
    }

    private static String shorten(String detail) {
        return detail == null || detail.length() <= 500 ? detail : detail.substring(0, 497) + "...";
    }
}
