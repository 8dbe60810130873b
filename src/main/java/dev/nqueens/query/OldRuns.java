package dev.nqueens.query;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes the history of the runs that ended before a cutoff: their rows in Spring Batch's tables
 * ({@code batch_*}) and in the product's ({@code run_control}, {@code run_publication},
 * {@code partition_execution}, {@code partition_lease}), and the cluster workers not heard of
 * since the cutoff. What a later run may need is never deleted: the latest run with every
 * execution of its job instance (the next run resumes it if it did not complete), the last
 * COMPLETED run (the nightly health's last success), and any run not ended or still marked as
 * running (a dead process's, which the next run marks failed and restarts).
 *
 * <p>The rows of a run are deleted table by table, those that point to others first, so no
 * foreign key ever points to a deleted row; {@value #RUNS_PER_TRANSACTION} runs per transaction,
 * oldest first, so that each transaction stays small (H2 keeps every page a transaction changes
 * until it commits) and an interrupted prune leaves whole runs.
 */
public final class OldRuns {

    /** Runs deleted per transaction. */
    static final int RUNS_PER_TRANSACTION = 50;

    static final String PRUNABLE = """
            SELECT e.job_execution_id FROM batch_job_execution e
            WHERE e.end_time < :cutoff
              AND e.status NOT IN ('STARTING', 'STARTED', 'STOPPING', 'UNKNOWN')
              AND e.job_instance_id <> (SELECT MAX(i.job_instance_id) FROM batch_job_instance i)
              AND e.job_execution_id <> COALESCE((SELECT c.job_execution_id FROM batch_job_execution c
                                                  WHERE c.status = 'COMPLETED'
                                                  ORDER BY c.end_time DESC, c.job_execution_id DESC LIMIT 1), -1)
            ORDER BY e.job_execution_id""";

    private static final String STEPS = "SELECT s.step_execution_id FROM batch_step_execution s"
            + " WHERE s.job_execution_id IN (:runs)";

    /** Table, and the statement that deletes the chunk's rows from it: those that point to others first. */
    private static final Map<String, String> DELETES = new LinkedHashMap<>();

    static {
        DELETES.put("batch_step_execution_context", "DELETE FROM batch_step_execution_context"
                + " WHERE step_execution_id IN (" + STEPS + ")");
        DELETES.put("partition_execution", "DELETE FROM partition_execution"
                + " WHERE job_execution_id IN (:runs) OR step_execution_id IN (" + STEPS + ")");
        DELETES.put("partition_lease", "DELETE FROM partition_lease WHERE job_execution_id IN (:runs)");
        DELETES.put("batch_step_execution", "DELETE FROM batch_step_execution WHERE job_execution_id IN (:runs)");
        DELETES.put("batch_job_execution_context", "DELETE FROM batch_job_execution_context"
                + " WHERE job_execution_id IN (:runs)");
        DELETES.put("batch_job_execution_params", "DELETE FROM batch_job_execution_params"
                + " WHERE job_execution_id IN (:runs)");
        DELETES.put("run_publication", "DELETE FROM run_publication WHERE job_execution_id IN (:runs)");
        DELETES.put("run_control", "DELETE FROM run_control WHERE job_execution_id IN (:runs)");
        DELETES.put("batch_job_execution", "DELETE FROM batch_job_execution WHERE job_execution_id IN (:runs)");
        DELETES.put("batch_job_instance", "DELETE FROM batch_job_instance WHERE job_instance_id IN (:instances)"
                + " AND NOT EXISTS (SELECT 1 FROM batch_job_execution e"
                + " WHERE e.job_instance_id = batch_job_instance.job_instance_id)");
    }

    static final String WORKERS = "DELETE FROM cluster_worker WHERE heartbeat_at < :cutoff";

    /**
     * What a prune deleted.
     *
     * @param runs the job executions deleted, oldest first
     * @param rows the rows deleted per table, in the order they were deleted
     */
    public record Pruned(List<Long> runs, Map<String, Integer> rows) {
    }

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    public OldRuns(DataSource dataSource) {
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    /**
     * Deletes what ended before {@code cutoff}, as this class describes. Spring Batch keeps the
     * local time of the process that ran the job: the cutoff is compared in this process's zone.
     */
    public Pruned prune(Instant cutoff) {
        LocalDateTime local = LocalDateTime.ofInstant(cutoff, ZoneId.systemDefault());
        List<Long> runs = jdbc.queryForList(PRUNABLE, Map.of("cutoff", local), Long.class);
        Map<String, Integer> rows = new LinkedHashMap<>();
        DELETES.keySet().forEach(table -> rows.put(table, 0));
        for (int from = 0; from < runs.size(); from += RUNS_PER_TRANSACTION) {
            List<Long> chunk = runs.subList(from, Math.min(runs.size(), from + RUNS_PER_TRANSACTION));
            transactions.executeWithoutResult(status -> deleteRuns(chunk, rows));
        }
        rows.put("cluster_worker", transactions.execute(status -> jdbc.update(WORKERS,
                Map.of("cutoff", OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC)))));
        return new Pruned(List.copyOf(runs), rows);
    }

    private void deleteRuns(List<Long> runs, Map<String, Integer> rows) {
        Map<String, Object> parameters = Map.of("runs", runs, "instances", new ArrayList<>(jdbc.queryForList(
                "SELECT DISTINCT job_instance_id FROM batch_job_execution WHERE job_execution_id IN (:runs)",
                Map.of("runs", runs), Long.class)));
        DELETES.forEach((table, delete) -> rows.merge(table, jdbc.update(delete, parameters), Integer::sum));
    }
}
