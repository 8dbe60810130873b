package dev.nqueens.job;

import dev.nqueens.failure.DiskFull;
import dev.nqueens.failure.Failure;
import dev.nqueens.failure.UnavailableException;
import dev.nqueens.settings.Durations;
import dev.nqueens.settings.NqueensProperties;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryListener;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.core.retry.Retryable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

/**
 * Starts the nightly job and reports how it ended. One run at a time: it takes the run lock, has
 * {@link EarlierExecutions} deal with what earlier runs left (an unfinished execution of the same
 * request is restarted, finishing its work where it ended), has {@link RunPlanner} decide the work,
 * and {@link RunReport} say how it went.
 *
 * <p>What it decides itself is whether to run again: a run that fails because it lost the database
 * (its server restarted or failed over) is run again, by Spring Batch's own restart of the job
 * execution: only the partitions and steps that had not finished run again, each from its last
 * commit, on this process's pool or on any worker. This happens at most {@link #MAX_RERUNS} times
 * per run, each once the database answers again, which it is waited for up to
 * {@code nqueens.outage-wait}; both are retried with Spring's {@link RetryTemplate}.
 */
@Service
public class NightlyRun {

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
    public record Outcome(
            BatchStatus status,
            List<SizePlan> plan,
            boolean restarted,
            List<String> failures,
            Duration elapsed,
            boolean windowClosed,
            Set<Integer> published,
            List<SizeProgress> unfinished,
            List<String> notes,
            int reruns,
            boolean serviceLost) {

        public boolean completed() {
            return status == BatchStatus.COMPLETED;
        }

        /** The sizes this run computed. */
        public List<Integer> computedSizes() {
            return plan.stream().filter(SizePlan::computes).map(SizePlan::n).toList();
        }
    }

    /** How far a size a run did not finish has got: the fraction of its work done before and after the run. */
    public record SizeProgress(int n, double before, double after, String description) {}

    private final JobOperator jobOperator;
    private final JobRepository jobRepository;
    private final Job nightlyJob;
    private final RunLock runLock;
    private final RunControl runControl;
    private final EarlierExecutions earlier;
    private final RunPlanner planner;
    private final RunReport report;
    private final ProgressReporter console;
    private final NqueensProperties properties;
    private final JdbcTemplate jdbc;
    private volatile boolean stopRequested;

    NightlyRun(
            JobOperator jobOperator,
            JobRepository jobRepository,
            Job nightlyJob,
            RunLock runLock,
            RunControl runControl,
            EarlierExecutions earlier,
            RunPlanner planner,
            RunReport report,
            ProgressReporter console,
            NqueensProperties properties,
            JdbcTemplate jdbc) {
        this.jobOperator = jobOperator;
        this.jobRepository = jobRepository;
        this.nightlyJob = nightlyJob;
        this.runLock = runLock;
        this.runControl = runControl;
        this.earlier = earlier;
        this.planner = planner;
        this.report = report;
        this.console = console;
        this.properties = properties;
        this.jdbc = jdbc;
    }

    /**
     * Runs the job to its end in the calling thread.
     *
     * @throws RunInProgressException if another run holds the database
     * @throws RunLockLostException if another run took the lock over while this one could not reach the database
     * @throws UnavailableException if the database stayed away longer than {@code nqueens.outage-wait}
     */
    public Outcome run(RunRequest request) {
        stopRequested = false;
        try (RunLock.Held lock = runLock.acquire(line -> console.line("  " + line))) {
            console.started();
            LocalDateTime started = LocalDateTime.now();
            Attempts attempts = new Attempts(request, lock);
            JobExecution execution = attempts.run();
            List<String> failures = new ArrayList<>(report.failuresOf(execution));
            if (attempts.gaveUp) {
                failures.add("the run lost the database " + (MAX_RERUNS + 1) + " times and gave up after " + MAX_RERUNS
                        + " reruns");
            }
            Set<Integer> published = attempts.publishedHere();
            if (execution.getStatus() != BatchStatus.COMPLETED && !published.isEmpty()) {
                report.exportWhatWasPublished(failures);
            }
            boolean windowClosed =
                    execution.getStatus() == BatchStatus.STOPPED && runControl.windowClosed(execution.getId());
            runControl.windowClosed(execution.getId(), windowClosed);
            LocalDateTime ended = execution.getEndTime() == null ? LocalDateTime.now() : execution.getEndTime();
            RunPlanner.Prepared work = attempts.work;
            return new Outcome(
                    execution.getStatus(),
                    work.plan(),
                    work.restarted(),
                    failures,
                    Duration.between(started, ended),
                    windowClosed,
                    published,
                    execution.getStatus() == BatchStatus.COMPLETED
                            ? List.of()
                            : report.unfinished(execution, work.plan(), work.before()),
                    report.notes(execution, failures),
                    attempts.reruns,
                    execution.getAllFailureExceptions().stream().anyMatch(UnavailableException.class::isInstance));
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
        private final Set<Long> executions = new TreeSet<>();
        private RunPlanner.Prepared work;
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
                    .maxRetries(MAX_RERUNS)
                    .delay(RERUN_PAUSE)
                    .multiplier(1)
                    .build());
            rerun.setRetryListener(new RetryListener() {
                @Override
                public void beforeRetry(RetryPolicy policy, Retryable<?> retryable) {
                    console.line(String.format(
                            "  running the unfinished work again from its last commit (rerun %d of" + " %d)",
                            reruns + 1, MAX_RERUNS));
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
            earlier.recoverThoseOfDeadRuns();
            Optional<JobExecution> unfinished = earlier.unfinishedOf(request);
            if (work == null) {
                work = planner.prepare(request, unfinished);
            }
            int outagesBefore = lock.database().episodes();
            JobExecution execution;
            try {
                if (unfinished.isPresent()) {
                    // Its work as planned, with tonight's window: Batch restarts the instance the same parameters name.
                    execution = jobOperator.start(
                            nightlyJob, RunParameters.again(unfinished.get().getJobParameters(), request));
                } else {
                    earlier.abandonUnfinished();
                    execution = jobOperator.start(nightlyJob, RunParameters.of(request, work.plan()));
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
            if (execution.getStatus().isUnsuccessful()
                    && execution.getStatus() != BatchStatus.STOPPED
                    && lostTheDatabase(execution, outagesBefore)) {
                throw new RunLostTheDatabase(execution, null);
            }
            return execution;
        }

        /** The sizes the executions of this run published. */
        Set<Integer> publishedHere() {
            Set<Integer> published = new TreeSet<>();
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
            if (execution.getAllFailureExceptions().stream().anyMatch(LostDatabase::isCause)
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
            try {
                LostDatabase.retryUntilBack(properties.outageWait())
                        .execute(() -> jdbc.queryForObject("SELECT 1", Integer.class));
            } catch (RetryException e) {
                Throwable why = e.getLastException() == null ? e : e.getLastException();
                throw new UnavailableException(
                        "the database has been unreachable for more than "
                                + Durations.format(properties.outageWait().toSeconds()) + " ("
                                + Failure.rootMessage(why)
                                + "); the run stopped, and the next run resumes it",
                        why);
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
}
