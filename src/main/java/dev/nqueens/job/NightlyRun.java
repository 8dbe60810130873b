package dev.nqueens.job;

import dev.nqueens.failure.DiskFull;
import dev.nqueens.failure.Failure;
import dev.nqueens.store.Database;
import dev.nqueens.store.GenerationTables;
import dev.nqueens.export.ReportExporter;
import dev.nqueens.failure.UnavailableException;
import dev.nqueens.settings.Durations;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobExecutionException;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryListener;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.core.retry.Retryable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Starts the nightly job and reports how it ended. One run at a time: it takes the run lock,
 * marks executions left running by a crashed process as failed, and restarts the last execution
 * when it failed or was stopped with the same request (finishing its work where it ended);
 * otherwise it plans the sizes and starts a new job instance.
 *
 * <p>A run that fails because it lost the database (its server restarted or failed over) is run
 * again, by Spring Batch's own restart of the job execution: only the partitions and steps that had
 * not finished run again, each from its last commit, on this process's pool or on any worker. This
 * happens at most {@link #MAX_RERUNS} times per run, each once the database answers again, which
 * it is waited for up to {@code nqueens.outage-wait}; both are retried with Spring's
 * {@link RetryTemplate}.
 */
@Service
public class NightlyRun {

    static final String SIZES = "sizes";
    static final String LIMITS = "storage";
    static final String FORCE = "force";
    static final String KEY = "run";
    static final String PLAN = "plan";
    /** When the run's time window closes (an instant), or empty: not part of what identifies the run's work. */
    static final String DEADLINE = "deadline";
    /** How many times a run is run again after losing the database before it gives up. */
    static final int MAX_RERUNS = 5;
    /** The pause before a rerun, after the database answers again. */
    private static final Duration RERUN_PAUSE = Duration.ofSeconds(1);

    /**
     * How a run ended: the job's status, its plan, whether it restarted an earlier execution, why
     * it failed, how long it took, whether its time window closed before the work was done, what
     * it published, how far each size it did not finish has got (before and after the run), what
     * went wrong and was put right along the way (e.g. two counts of a unit that disagreed), how
     * many times it was run again after losing the database, and whether it failed because a service
     * it needs (the broker) stayed away longer than {@code nqueens.outage-wait}.
     */
    public record Outcome(BatchStatus status, List<SizePlan> plan, boolean restarted, List<String> failures,
            Duration elapsed, boolean windowClosed, Set<Integer> published, List<SizeProgress> unfinished,
            List<String> notes, int reruns, boolean serviceLost) {

        public boolean completed() {
            return status == BatchStatus.COMPLETED;
        }

        /** The sizes this run computed. */
        public List<Integer> computedSizes() {
            return plan.stream().filter(SizePlan::computes).map(SizePlan::n).toList();
        }
    }

    /** How far a size a run did not finish has got: the fraction of its work done before and after the run. */
    public record SizeProgress(int n, double before, double after, String description) {
    }

    private final JobOperator jobOperator;
    private final JobRepository jobRepository;
    private final Job nightlyJob;
    private final SolutionStore store;
    private final RunLock runLock;
    private final RunControl runControl;
    private final CountPlanner countPlanner;
    private final WorkProgress workProgress;
    private final ProgressReporter console;
    private final ReportExporter exporter;
    private final NqueensProperties properties;
    private final SizePublisher publisher;
    private final RunDatabase database;
    private final PartitionExecution partitionExecution;
    private final JdbcTemplate jdbc;
    private final GenerationTables tables;
    private final org.springframework.core.env.Environment environment;
    private final TransactionTemplate inOneTransaction;
    private volatile boolean stopRequested;

    NightlyRun(JobOperator jobOperator, JobRepository jobRepository, Job nightlyJob, SolutionStore store,
            RunLock runLock, RunControl runControl, CountPlanner countPlanner, WorkProgress workProgress,
            ProgressReporter console, ReportExporter exporter, NqueensProperties properties, SizePublisher publisher,
            java.util.Optional<RunDatabase> database, PartitionExecution partitionExecution, JdbcTemplate jdbc,
            PlatformTransactionManager transactionManager, org.springframework.core.env.Environment environment,
            GenerationTables tables) {
        this.environment = environment;
        this.tables = tables;
        this.publisher = publisher;
        this.database = database.orElse(RunDatabase.WRITABLE);
        this.jobOperator = jobOperator;
        this.jobRepository = jobRepository;
        this.nightlyJob = nightlyJob;
        this.store = store;
        this.runLock = runLock;
        this.runControl = runControl;
        this.countPlanner = countPlanner;
        this.workProgress = workProgress;
        this.console = console;
        this.exporter = exporter;
        this.properties = properties;
        this.partitionExecution = partitionExecution;
        this.jdbc = jdbc;
        this.inOneTransaction = new TransactionTemplate(transactionManager);
    }

    /**
     * Runs the job to its end in the calling thread.
     *
     * @throws RunInProgressException if another run holds the database
     * @throws RunLockLostException if another run took the lock over while this one could not reach the database
     * @throws UnavailableException if the database stayed away longer than {@code nqueens.outage-wait}
     */
    public Outcome run(RunRequest request) {
        return database.writableDuring(() -> runHoldingTheLock(request));
    }

    private Outcome runHoldingTheLock(RunRequest request) {
        stopRequested = false;
        try (RunLock.Held lock = runLock.acquire(line -> console.line("  " + line))) {
            console.started();
            LocalDateTime started = LocalDateTime.now();
            Attempts attempts = new Attempts(request, lock);
            JobExecution execution = attempts.run();
            List<String> failures = new ArrayList<>(failuresOf(execution));
            if (attempts.gaveUp) {
                failures.add("the run lost the database " + (MAX_RERUNS + 1) + " times and gave up after "
                        + MAX_RERUNS + " reruns");
            }
            Set<Integer> published = attempts.publishedHere();
            if (execution.getStatus() != BatchStatus.COMPLETED && !published.isEmpty()) {
                exportWhatWasPublished(failures);
            }
            boolean windowClosed = execution.getStatus() == BatchStatus.STOPPED
                    && runControl.windowClosed(execution.getId());
            runControl.windowClosed(execution.getId(), windowClosed);
            LocalDateTime ended = execution.getEndTime() == null ? LocalDateTime.now() : execution.getEndTime();
            List<String> notes = publisher.failures(execution).stream()
                    .filter(note -> failures.stream().noneMatch(failure -> failure.contains(note))).toList();
            return new Outcome(execution.getStatus(), attempts.plan, attempts.restarted, failures,
                    Duration.between(started, ended), windowClosed, published,
                    execution.getStatus() == BatchStatus.COMPLETED ? List.of()
                            : unfinished(execution, attempts.plan, attempts.before),
                    notes, attempts.reruns, execution.getAllFailureExceptions().stream()
                            .anyMatch(UnavailableException.class::isInstance));
        }
    }

    /**
     * The attempts of one run: the first, and a rerun for each time it lost the database. Each
     * marks what the last one left running as failed, then starts the job (a restart of the
     * unfinished execution from the second attempt on).
     */
    private final class Attempts {

        private final RunRequest request;
        private final RunLock.Held lock;
        private final Set<Long> executions = new java.util.TreeSet<>();
        private List<SizePlan> plan;
        private boolean restarted;
        private Map<Integer, WorkProgress.Progress> before = Map.of();
        private boolean prepared;
        private int reruns = -1;
        private boolean gaveUp;
        private JobExecution last;

        Attempts(RunRequest request, RunLock.Held lock) {
            this.request = request;
            this.lock = lock;
        }

        JobExecution run() {
            RetryTemplate rerun = new RetryTemplate(RetryPolicy.builder()
                    .predicate(failure -> failure instanceof RunLostTheDatabase && !stopRequested && !lock.lost())
                    .maxRetries(MAX_RERUNS).delay(RERUN_PAUSE).multiplier(1).build());
            rerun.setRetryListener(new RetryListener() {
                @Override
                public void beforeRetry(RetryPolicy policy, Retryable<?> retryable) {
                    console.line(String.format("  running the unfinished work again from its last commit (rerun %d of"
                            + " %d)", reruns + 1, MAX_RERUNS));
                }
            });
            try {
                return rerun.execute(this::attempt);
            } catch (RetryException e) {
                Throwable failure = e.getLastException() == null ? e.getCause() : e.getLastException();
                if (lock.lost()) {
                    throw lock.lostException();
                }
                if (failure instanceof RunLostTheDatabase lost) {
                    gaveUp = !stopRequested;
                    return lost.execution;
                }
                if (failure instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw new IllegalStateException(failure);
            }
        }

        private JobExecution attempt() {
            reruns++;
            if (reruns > 0) {
                waitForTheDatabase();
            }
            recoverExecutionsOfDeadRuns();
            Optional<JobExecution> unfinished = lastUnfinished().filter(last -> sameRequest(last, request));
            if (!prepared) {
                prepare(unfinished);
            }
            int outagesBefore = lock.database().episodes();
            JobExecution execution;
            try {
                if (unfinished.isPresent()) {
                    // Its work as planned, with tonight's window: Batch restarts the instance the same parameters name.
                    execution = jobOperator.start(nightlyJob, again(unfinished.get().getJobParameters(), request));
                } else {
                    abandonUnfinished();
                    execution = jobOperator.start(nightlyJob, parameters(request, plan));
                }
            } catch (Exception e) {
                if (LostDatabase.isCause(e)) {
                    throw new RunLostTheDatabase(last, e);
                }
                throw new IllegalStateException("cannot start the job: " + e.getMessage(), e);
            }
            last = execution;
            executions.add(execution.getId());
            if (lock.lost()) {
                throw lock.lostException();
            }
            if (execution.getStatus().isUnsuccessful() && execution.getStatus() != BatchStatus.STOPPED
                    && lostTheDatabase(execution, outagesBefore)) {
                throw new RunLostTheDatabase(execution, null);
            }
            return execution;
        }

        /** The plan, the split of its counted sizes (under the lock), and where its sizes stand. */
        private void prepare(Optional<JobExecution> unfinished) {
            // The views as this build writes them (a database of an earlier build keeps its views until then).
            tables.rebuildViews();
            plan = unfinished.map(last -> SizePlan.parse(last.getJobParameters().getString(PLAN)))
                    .orElseGet(() -> plan(request));
            restarted = unfinished.isPresent();
            // A size an earlier night of this run published has no split any more: it must not get a new one.
            Set<Integer> publishedBefore = unfinished
                    .map(last -> runControl.publishedByInstance(last.getJobInstance().getInstanceId()))
                    .orElse(Set.of());
            List<String> notes = inOneTransaction.execute(status -> {
                runLock.checkHeld();
                return countPlanner.prepare(plan.stream().filter(size -> !publishedBefore.contains(size.n())).toList());
            });
            notes.forEach(console::line);
            before = progressOf(plan);
            prepared = true;
        }

        /** The sizes the executions of this run published. */
        Set<Integer> publishedHere() {
            Set<Integer> published = new java.util.TreeSet<>();
            executions.forEach(id -> published.addAll(runControl.publishedBy(id)));
            return published;
        }

        /**
         * Whether the execution failed because the database went away: the failures of its own steps
         * (and of the partitions it ran here) say so, the lock's heartbeat saw the database away, or
         * a partition, wherever it ran, ended with {@link LostDatabase#EXIT_CODE} or could not record
         * its end (read afresh: a worker records its partition's end in the repository).
         */
        private boolean lostTheDatabase(JobExecution execution, int outagesBefore) {
            if (execution.getAllFailureExceptions().stream().anyMatch(DiskFull::isCause)) {
                return false;
            }
            if (LostDatabase.isCauseOfAny(execution.getAllFailureExceptions())
                    || lock.database().episodes() > outagesBefore) {
                return true;
            }
            try {
                return jobRepository.getJobExecution(execution.getId()).getStepExecutions().stream()
                        .anyMatch(LostDatabase::lostBy);
            } catch (RuntimeException e) {
                return LostDatabase.isCause(e);
            }
        }

        /**
         * Waits, with back-off, until the database answers again, for at most {@code nqueens.outage-wait}.
         *
         * @throws UnavailableException if it does not
         */
        private void waitForTheDatabase() {
            RetryTemplate waiting = new RetryTemplate(RetryPolicy.builder().predicate(LostDatabase::isCause)
                    .maxRetries(Integer.MAX_VALUE).delay(Duration.ofMillis(500)).multiplier(1.5)
                    .maxDelay(Duration.ofSeconds(5)).timeout(properties.outageWait()).build());
            try {
                waiting.execute(() -> jdbc.queryForObject("SELECT 1", Integer.class));
            } catch (RetryException e) {
                Throwable why = e.getLastException() == null ? e : e.getLastException();
                throw new UnavailableException("the database has been unreachable for more than "
                        + Durations.format(properties.outageWait().toSeconds()) + " (" + Outage.firstLineOfRoot(why)
                        + "); the run stopped, and the next run resumes it", why);
            }
        }
    }

    /** A run's execution failed because it lost the database: it is run again. */
    private static final class RunLostTheDatabase extends RuntimeException {

        private final transient JobExecution execution;

        RunLostTheDatabase(JobExecution execution, Throwable cause) {
            super("the run lost the database", cause);
            this.execution = execution;
        }
    }

    /**
     * Why the execution failed, in the product's words: Batch's own summary of a failed partitioned
     * step ("Partition handler returned an unsuccessful step") is left out, since the partitions'
     * failures say why, and a lost connection says so.
     */
    private List<String> failuresOf(JobExecution execution) {
        List<String> diskFull = execution.getAllFailureExceptions().stream().filter(DiskFull::isCause)
                .map(this::diskFull).distinct().toList();
        if (!diskFull.isEmpty()) {
            // What a full disk set off (Batch failing to record the partition's end) says nothing more.
            return diskFull;
        }
        return execution.getAllFailureExceptions().stream()
                .filter(failure -> !interruption(failure))
                .filter(failure -> failure.getClass() != JobExecutionException.class)
                .map(failure -> DiskFull.isCause(failure) ? diskFull(failure)
                        : LostDatabase.isCause(failure) ? "lost the database: " + Failure.rootMessage(failure)
                        : Failure.rootMessage(failure))
                .distinct().toList();
    }

    /**
     * A full disk, in one line naming what to free: the export folder, the H2 file's device, or in
     * the database server's own words.
     */
    String diskFull(Throwable failure) {
        return DiskFull.describe(failure, Database.of(environment, properties).h2File().map(file -> file.dataFile()));
    }

    /**
     * A run that did not complete skipped its export step, but the sizes it published are
     * complete and checked: they are exported all the same.
     */
    private void exportWhatWasPublished(List<String> failures) {
        try {
            exporter.exportAll(Path.of(properties.outputDir()));
        } catch (RuntimeException e) {
            failures.add(DiskFull.isCause(e) ? diskFull(e)
                    : "the export of the published sizes failed: " + Failure.rootMessage(e));
        }
    }

    private Map<Integer, WorkProgress.Progress> progressOf(List<SizePlan> plan) {
        Map<Integer, WorkProgress.Progress> progress = new TreeMap<>();
        for (SizePlan size : plan) {
            if (size.computes()) {
                workProgress.of(size).ifPresent(p -> progress.put(size.n(), p));
            }
        }
        return progress;
    }

    /** The sizes of the plan that are still not published, with their progress before and after the run. */
    private List<SizeProgress> unfinished(JobExecution execution, List<SizePlan> plan,
            Map<Integer, WorkProgress.Progress> before) {
        Set<Integer> published = runControl.publishedByInstance(execution.getJobInstance().getInstanceId());
        List<SizeProgress> sizes = new ArrayList<>();
        for (SizePlan size : plan) {
            if (!size.computes() || published.contains(size.n())) {
                continue;
            }
            Optional<WorkProgress.Progress> now = workProgress.of(size);
            WorkProgress.Progress then = before.get(size.n());
            sizes.add(new SizeProgress(size.n(), then == null ? 0 : then.fraction(),
                    now.map(WorkProgress.Progress::fraction).orElse(0.0),
                    now.map(WorkProgress.Progress::description).orElse("")));
        }
        return sizes;
    }

    /**
     * Asks the running job of this process, if any, to stop at its next chunk boundary. A run of
     * another process sharing the database (a cluster's manager, seen from a worker or from
     * {@code serve}) is left alone.
     *
     * @return true if a running execution was told to stop
     */
    public boolean stopRunning() {
        stopRequested = true;
        boolean stopped = false;
        for (JobExecution running : jobRepository.findRunningJobExecutions(NightlyJobConfiguration.JOB_NAME)) {
            if (!runControl.begunHere(running.getId())) {
                continue;
            }
            try {
                stopped |= jobOperator.stop(running);
            } catch (Exception e) {
                // it is ending on its own
            }
        }
        return stopped;
    }

    /** What each requested size needs, given what is published. */
    List<SizePlan> plan(RunRequest request) {
        List<SizePlan> plan = new ArrayList<>();
        for (int n : request.sizes().sizes()) {
            plan.add(SizePlan.decide(n, request.limits().levelOf(n),
                    store.summary(n).map(BoardSummary::stored), request.force()));
        }
        return plan;
    }

    /**
     * We hold the lock, so an execution still marked running belongs to a process that died (or to
     * this run's last attempt, which lost the database): mark it and its running steps FAILED so
     * that it can be restarted, and end its partitions' claims, so that none of them writes again.
     * An execution or step Batch left UNKNOWN (its update failed with the database away) is marked
     * FAILED too: Batch refuses to restart a job instance with one.
     */
    private void recoverExecutionsOfDeadRuns() {
        Set<Long> suspects = new java.util.TreeSet<>();
        jobRepository.findRunningJobExecutions(NightlyJobConfiguration.JOB_NAME)
                .forEach(execution -> suspects.add(execution.getId()));
        suspects.addAll(jdbc.queryForList("SELECT job_execution_id FROM batch_job_execution WHERE status = 'UNKNOWN'",
                Long.class));
        JobInstance last = jobRepository.getLastJobInstance(NightlyJobConfiguration.JOB_NAME);
        if (last != null && jobRepository.getLastJobExecution(last) != null) {
            suspects.add(jobRepository.getLastJobExecution(last).getId());
        }
        for (long id : suspects) {
            markFailedIfLeftRunning(jobRepository.getJobExecution(id));
            partitionExecution.recall(id);
        }
    }

    private void markFailedIfLeftRunning(JobExecution execution) {
        LocalDateTime now = LocalDateTime.now();
        boolean leftRunning = execution.getStatus().isRunning() || execution.getStatus() == BatchStatus.STOPPING
                || execution.getStatus() == BatchStatus.UNKNOWN;
        for (StepExecution step : execution.getStepExecutions()) {
            // UNKNOWN: a step or partition whose last update failed; Spring Batch refuses to restart it as it is.
            BatchStatus status = step.getStatus();
            if (status.isRunning() || status == BatchStatus.STOPPING || status == BatchStatus.UNKNOWN) {
                step.setStatus(BatchStatus.FAILED);
                step.setExitStatus(status == BatchStatus.UNKNOWN ? new ExitStatus(LostDatabase.EXIT_CODE, UNRECORDED)
                        : ExitStatus.FAILED.addExitDescription(DIED));
                step.setEndTime(now);
                jobRepository.update(step);
                leftRunning = true;
            }
        }
        if (leftRunning) {
            execution.setStatus(BatchStatus.FAILED);
            execution.setExitStatus(ExitStatus.FAILED.addExitDescription(DIED));
            execution.setEndTime(now);
            jobRepository.update(execution);
        }
    }

    private static final String DIED = "the process running it ended without finishing it";
    private static final String UNRECORDED = "its end could not be recorded: the database went away";

    private Optional<JobExecution> lastUnfinished() {
        JobInstance last = jobRepository.getLastJobInstance(NightlyJobConfiguration.JOB_NAME);
        if (last == null) {
            return Optional.empty();
        }
        JobExecution execution = jobRepository.getLastJobExecution(last);
        if (execution == null) {
            return Optional.empty();
        }
        BatchStatus status = execution.getStatus();
        return status == BatchStatus.FAILED || status == BatchStatus.STOPPED ? Optional.of(execution)
                : Optional.empty();
    }

    /** A different request supersedes the unfinished run: it is never restarted later. */
    private void abandonUnfinished() {
        lastUnfinished().ifPresent(execution -> {
            try {
                jobOperator.abandon(execution);
            } catch (Exception e) {
                throw new IllegalStateException("cannot abandon execution " + execution.getId(), e);
            }
        });
    }

    private static boolean sameRequest(JobExecution execution, RunRequest request) {
        JobParameters parameters = execution.getJobParameters();
        return Objects.equals(parameters.getString(SIZES), request.sizes().toString())
                && Objects.equals(parameters.getString(LIMITS), request.limits().toString())
                && Objects.equals(parameters.getString(FORCE), String.valueOf(request.force()));
    }

    static JobParameters parameters(RunRequest request, List<SizePlan> plan) {
        JobParametersBuilder builder = new JobParametersBuilder()
                .addString(SIZES, request.sizes().toString())
                .addString(LIMITS, request.limits().toString())
                .addString(FORCE, String.valueOf(request.force()))
                .addLocalDateTime(KEY, request.key())
                .addString(PLAN, SizePlan.format(plan), false);
        return withDeadline(builder, request);
    }

    /** The parameters of an unfinished run, its plan kept, its deadline that of {@code request}. */
    private static JobParameters again(JobParameters unfinished, RunRequest request) {
        JobParametersBuilder builder = new JobParametersBuilder(new JobParameters(unfinished.getIdentifyingParameters()))
                .addString(PLAN, unfinished.getString(PLAN), false);
        return withDeadline(builder, request);
    }

    private static JobParameters withDeadline(JobParametersBuilder builder, RunRequest request) {
        request.deadline().ifPresent(deadline -> builder.addString(DEADLINE, deadline.toString(), false));
        return builder.toJobParameters();
    }

    /** The end of a run's time window, from its job parameters. */
    static Optional<Instant> deadlineOf(JobParameters parameters) {
        return Optional.ofNullable(parameters.getString(DEADLINE)).map(Instant::parse);
    }

    /** Batch's record of a stop (the window closed, SIGTERM): the outcome says so, it is no failure. */
    private static boolean interruption(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JobInterruptedException) {
                return true;
            }
        }
        return false;
    }

}
