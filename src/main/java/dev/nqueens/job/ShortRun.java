package dev.nqueens.job;

import dev.nqueens.count.CountingEngine;
import dev.nqueens.export.ReportExporter;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.SolutionStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.repository.support.JdbcJobRepositoryFactoryBean;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * A run with nothing to compute, done without the job's machinery: every size asked for is
 * published at its level, and no earlier run is left to resume. It still takes the run lock,
 * records a completed run in the job repository (through Spring Batch's own repository, so
 * {@code history} and the nightly health see it like any other), and brings the reports up to date
 * — which, when the published sizes have not changed since the last export, writes nothing, but
 * still removes reports the manifest does not list.
 */
public final class ShortRun {

    /** Batch statuses of a last execution that a run would resume, recover or abandon. */
    private static final Set<String> UNFINISHED = Set.of("STARTING", "STARTED", "STOPPING", "STOPPED", "FAILED",
            "UNKNOWN");

    private final DataSource dataSource;
    private final SolutionStore store;

    public ShortRun(DataSource dataSource) {
        this.dataSource = dataSource;
        this.store = SolutionStore.of(new JdbcTemplate(dataSource));
    }

    /** What each requested size needs, given what is published (as a run of the job plans it). */
    public List<SizePlan> plan(RunRequest request) {
        return SizePlan.of(request, store);
    }

    /** Whether the request can be done here: nothing to compute, no run left unfinished. */
    public boolean suffices(List<SizePlan> plan) {
        if (!plan.stream().allMatch(SizePlan::untouched)) {
            return false;
        }
        List<String> last = new JdbcTemplate(dataSource).queryForList("""
                SELECT status FROM batch_job_execution
                WHERE job_execution_id = (SELECT MAX(job_execution_id) FROM batch_job_execution)""", String.class);
        return last.isEmpty() || !UNFINISHED.contains(last.get(0));
    }

    /**
     * Does the run: lock, record, export (naming on {@code out} the files the export removed).
     *
     * @throws RunInProgressException if another run holds the database
     */
    public NightlyRun.Outcome run(RunRequest request, List<SizePlan> plan, Path outputFolder, PrintStream out) {
        try (RunLock.Held lock = new RunLock(dataSource).acquire(line -> { })) {
            JobRepository repository = repository();
            JobParameters parameters = RunParameters.of(request, plan);
            JobInstance instance = repository.createJobInstance(NightlyJobConfiguration.JOB_NAME, parameters);
            JobExecution execution = repository.createJobExecution(instance, parameters, new ExecutionContext());
            execution.setStartTime(LocalDateTime.now());
            execution.setStatus(BatchStatus.STARTED);
            repository.update(execution);
            new ReportExporter(store).exportAll(outputFolder).removal(outputFolder)
                    .ifPresent(out::println);
            execution.setStatus(BatchStatus.COMPLETED);
            execution.setExitStatus(ExitStatus.COMPLETED);
            execution.setEndTime(LocalDateTime.now());
            repository.update(execution);
            return new NightlyRun.Outcome(BatchStatus.COMPLETED, plan, false, List.of(),
                    Duration.between(execution.getStartTime(), execution.getEndTime()), false, Set.of(), List.of(),
                    List.of(), 0, false);
        }
    }

    private JobRepository repository() {
        JdbcJobRepositoryFactoryBean factory = new JdbcJobRepositoryFactoryBean();
        factory.setDataSource(dataSource);
        factory.setTransactionManager(new DataSourceTransactionManager(dataSource));
        try {
            factory.afterPropertiesSet();
            return factory.getObject();
        } catch (Exception e) {
            throw new IllegalStateException("cannot open the job repository: " + e.getMessage(), e);
        }
    }

    /**
     * The memory a job JVM needs beside its base heap.
     *
     * @param heap more heap
     * @param young a young generation of this size (0: the launcher's own, 16 MB)
     */
    public record JobMemory(long heap, long young) {
    }

    /** Rows a size stores from which its JVM gets a {@link #STORING_YOUNG} young generation. */
    static final long MANY_ROWS = 1_000_000;
    /**
     * The young generation of a JVM that stores a size of {@link #MANY_ROWS} or more: the database
     * writes copy a page path for every row, gigabytes of short-lived arrays for millions of rows
     * (n = 15: 28 GB), which a 16 MB young generation collects 2,200 times (10 s of 36 at n = 15,
     * docs/performance.md); 384 MB, about a hundred times.
     */
    static final long STORING_YOUNG = 384L << 20;

    /**
     * The memory the plan's work needs beside the base heap: the counting engine's for the
     * largest size it counts, the enumeration's for the largest size it stores row by row (both
     * can run at once), and, when that size has millions of rows, a young generation for them.
     */
    public static JobMemory memoryNeeded(List<SizePlan> plan, int threads) {
        KnownCounts known = KnownCounts.load();
        long engine = 0;
        long rows = 0;
        long young = 0;
        for (SizePlan size : plan) {
            if (!size.computes()) {
                continue;
            }
            if (size.level() == StoredLevel.COUNT) {
                engine = Math.max(engine, CountingEngine.heapBytesNeeded(size.n(), threads));
                continue;
            }
            rows = Math.max(rows, SolutionSource.heapBytesNeeded(size.n(), size.level(), known));
            long stored = known.of(size.n()).map(k -> size.level() == StoredLevel.ALL ? k.totalSolutions()
                    : k.fundamentalSolutions()).orElse(0L);
            if (stored >= MANY_ROWS) {
                young = STORING_YOUNG;
            }
        }
        return new JobMemory(engine + rows + young, young);
    }
}
