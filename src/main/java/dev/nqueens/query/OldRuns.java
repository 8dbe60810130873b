package dev.nqueens.query;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.repository.support.JdbcJobRepositoryFactoryBean;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
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
 * <p>Spring Batch's rows go through its {@link JobRepository} ({@code deleteJobExecution},
 * {@code deleteJobInstance} once no execution of the instance is left); only the product's own
 * tables, which Batch does not know, are deleted here in SQL, first, as they point to Batch's rows.
 * The rows are counted before they go, by the same conditions a {@linkplain #dryRun dry run}
 * counts. {@value #RUNS_PER_TRANSACTION} runs per transaction, oldest first, so that each
 * transaction stays small (H2 keeps every page a transaction changes until it commits) and an
 * interrupted prune leaves whole runs. A dry run counts what a prune would delete and writes nothing.
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

    private static final String STEPS =
            "SELECT s.step_execution_id FROM batch_step_execution s" + " WHERE s.job_execution_id IN (:runs)";

    /**
     * Per table, the condition that picks the rows of the runs {@code :runs}, in the order of the
     * report; both a prune and a dry run count the rows by these.
     */
    private static final Map<String, String> ROWS = new LinkedHashMap<>();

    static {
        ROWS.put("batch_step_execution_context", "step_execution_id IN (" + STEPS + ")");
        ROWS.put("partition_execution", "job_execution_id IN (:runs) OR step_execution_id IN (" + STEPS + ")");
        ROWS.put("partition_lease", "job_execution_id IN (:runs)");
        ROWS.put("batch_step_execution", "job_execution_id IN (:runs)");
        ROWS.put("batch_job_execution_context", "job_execution_id IN (:runs)");
        ROWS.put("batch_job_execution_params", "job_execution_id IN (:runs)");
        ROWS.put("run_publication", "job_execution_id IN (:runs)");
        ROWS.put("run_control", "job_execution_id IN (:runs)");
        ROWS.put("batch_job_execution", "job_execution_id IN (:runs)");
    }

    /**
     * The product's tables, deleted in SQL by their conditions above: Spring Batch's repository
     * knows only its own. Deleted before Batch's rows, which they point to.
     */
    private static final List<String> OURS =
            List.of("partition_execution", "partition_lease", "run_publication", "run_control");

    /** Deleted last: the job instances of the runs none of whose executions is left. */
    static final String INSTANCES = "batch_job_instance";

    static final String WORKERS = "cluster_worker";

    private static final String WORKERS_SILENT_SINCE = " FROM cluster_worker WHERE heartbeat_at < :cutoff";

    /**
     * What a prune deleted, or a dry run found it would delete.
     *
     * @param runs the job executions, oldest first
     * @param rows the rows per table, in the order of the report
     */
    public record Pruned(List<Long> runs, Map<String, Integer> rows) {}

    private final DataSource dataSource;
    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    public OldRuns(DataSource dataSource) {
        this.dataSource = dataSource;
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    /**
     * Deletes what ended before {@code cutoff}, as this class describes. Spring Batch keeps the
     * local time of the process that ran the job: the cutoff is compared in this process's zone.
     */
    public Pruned prune(Instant cutoff) {
        List<Long> runs = runsEndedBefore(cutoff);
        Map<String, Integer> rows = noRows();
        JobRepository repository = jobRepository();
        for (List<Long> chunk : chunks(runs)) {
            transactions.executeWithoutResult(status -> deleteRuns(chunk, repository, rows));
        }
        rows.put(
                WORKERS,
                transactions.execute(status -> jdbc.update(
                        "DELETE" + WORKERS_SILENT_SINCE,
                        Map.of("cutoff", OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC)))));
        return new Pruned(List.copyOf(runs), rows);
    }

    /**
     * What {@link #prune} would delete now, found by the same selection and conditions, counted
     * in one read-only transaction (one snapshot of the history); nothing is written.
     */
    public Pruned dryRun(Instant cutoff) {
        TransactionTemplate snapshot = new TransactionTemplate(transactions.getTransactionManager());
        snapshot.setReadOnly(true);
        snapshot.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        return snapshot.execute(status -> {
            List<Long> runs = runsEndedBefore(cutoff);
            Map<String, Integer> rows = noRows();
            Map<Long, Set<Long>> executionsOfInstances = new HashMap<>();
            for (List<Long> chunk : chunks(runs)) {
                Map<String, Object> parameters = Map.of("runs", chunk);
                countRows(parameters, rows);
                jdbc.query(
                        "SELECT e.job_instance_id, e.job_execution_id FROM batch_job_execution e"
                                + " WHERE e.job_instance_id IN (SELECT job_instance_id FROM batch_job_execution"
                                + " WHERE job_execution_id IN (:runs))",
                        parameters,
                        row -> {
                            executionsOfInstances
                                    .computeIfAbsent(row.getLong(1), instance -> new HashSet<>())
                                    .add(row.getLong(2));
                        });
            }
            Set<Long> deleted = new HashSet<>(runs);
            rows.put(INSTANCES, (int) executionsOfInstances.values().stream()
                    .filter(deleted::containsAll)
                    .count());
            rows.put(
                    WORKERS,
                    jdbc.queryForObject(
                            "SELECT COUNT(*)" + WORKERS_SILENT_SINCE,
                            Map.of("cutoff", OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC)),
                            Integer.class));
            return new Pruned(List.copyOf(runs), rows);
        });
    }

    private List<Long> runsEndedBefore(Instant cutoff) {
        LocalDateTime local = LocalDateTime.ofInstant(cutoff, ZoneId.systemDefault());
        return jdbc.queryForList(PRUNABLE, Map.of("cutoff", local), Long.class);
    }

    /** Every table of the report with no rows yet, in the order the prune deletes from them. */
    private static Map<String, Integer> noRows() {
        Map<String, Integer> rows = new LinkedHashMap<>();
        ROWS.keySet().forEach(table -> rows.put(table, 0));
        rows.put(INSTANCES, 0);
        return rows;
    }

    private static List<List<Long>> chunks(List<Long> runs) {
        List<List<Long>> chunks = new ArrayList<>();
        for (int from = 0; from < runs.size(); from += RUNS_PER_TRANSACTION) {
            chunks.add(runs.subList(from, Math.min(runs.size(), from + RUNS_PER_TRANSACTION)));
        }
        return chunks;
    }

    private void countRows(Map<String, Object> runs, Map<String, Integer> rows) {
        ROWS.forEach((table, condition) -> rows.merge(
                table,
                jdbc.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE " + condition, runs, Integer.class),
                Integer::sum));
    }

    /** Counts the rows of the runs, deletes those in our tables, then the runs through Spring Batch. */
    private void deleteRuns(List<Long> runs, JobRepository repository, Map<String, Integer> rows) {
        Map<String, Object> parameters = Map.of("runs", runs);
        countRows(parameters, rows);
        OURS.forEach(table -> jdbc.update("DELETE FROM " + table + " WHERE " + ROWS.get(table), parameters));
        Map<Long, JobInstance> instances = new LinkedHashMap<>();
        for (long run : runs) {
            JobExecution execution = repository.getJobExecution(run);
            instances.putIfAbsent(execution.getJobInstance().getInstanceId(), execution.getJobInstance());
            repository.deleteJobExecution(execution);
        }
        for (JobInstance instance : instances.values()) {
            // Not getLastJobExecution: Batch runs it in a transaction of its own, which on the one
            // connection prune is given would commit this one's deletes halfway (PostgreSQL refuses).
            if (repository.getJobExecutions(instance).isEmpty()) {
                repository.deleteJobInstance(instance);
                rows.merge(INSTANCES, 1, Integer::sum);
            }
        }
    }

    /**
     * Spring Batch's repository on this database, built as its reference shows for a JDBC one without a
     * context; its methods join the transaction of {@link #transactions}.
     */
    private JobRepository jobRepository() {
        JdbcJobRepositoryFactoryBean factory = new JdbcJobRepositoryFactoryBean();
        factory.setDataSource(dataSource);
        factory.setTransactionManager(transactions.getTransactionManager());
        try {
            factory.afterPropertiesSet();
            return factory.getObject();
        } catch (Exception e) {
            throw new IllegalStateException("could not open Spring Batch's job repository", e);
        }
    }
}
