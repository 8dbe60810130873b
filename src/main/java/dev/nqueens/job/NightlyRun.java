package dev.nqueens.job;

import dev.nqueens.failure.Failure;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.export.ReportExporter;
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
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.stereotype.Service;

/**
 * Starts the nightly job and reports how it ended. One run at a time: it takes the run lock,
 * marks executions left running by a crashed process as failed, and restarts the last execution
 * when it failed or was stopped with the same request (finishing its work where it ended);
 * otherwise it plans the sizes and starts a new job instance.
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

    /**
     * How a run ended: the job's status, its plan, whether it restarted an earlier execution, why
     * it failed, how long it took, whether its time window closed before the work was done, what
     * it published, how far each size it did not finish has got (before and after the run), and
     * what went wrong and was put right along the way (e.g. two counts of a unit that disagreed).
     */
    public record Outcome(BatchStatus status, List<SizePlan> plan, boolean restarted, List<String> failures,
            Duration elapsed, boolean windowClosed, Set<Integer> published, List<SizeProgress> unfinished,
            List<String> notes) {

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

    NightlyRun(JobOperator jobOperator, JobRepository jobRepository, Job nightlyJob, SolutionStore store,
            RunLock runLock, RunControl runControl, CountPlanner countPlanner, WorkProgress workProgress,
            ProgressReporter console, ReportExporter exporter, NqueensProperties properties, SizePublisher publisher,
            java.util.Optional<RunDatabase> database) {
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
    }

    /**
     * Runs the job to its end in the calling thread.
     *
     * @throws RunInProgressException if another run holds the database
     */
    public Outcome run(RunRequest request) {
        return database.writableDuring(() -> runHoldingTheLock(request));
    }

    private Outcome runHoldingTheLock(RunRequest request) {
        try (RunLock.Held lock = runLock.acquire()) {
            console.started();
            recoverExecutionsOfDeadRuns();
            JobExecution execution;
            boolean restarted;
            Optional<JobExecution> unfinished = lastUnfinished().filter(last -> sameRequest(last, request));
            List<SizePlan> plan = unfinished.map(last -> SizePlan.parse(last.getJobParameters().getString(PLAN)))
                    .orElseGet(() -> plan(request));
            // A size an earlier night of this run published has no split any more: it must not get a new one.
            Set<Integer> publishedBefore = unfinished
                    .map(last -> runControl.publishedByInstance(last.getJobInstance().getInstanceId()))
                    .orElse(Set.of());
            countPlanner.prepare(plan.stream().filter(size -> !publishedBefore.contains(size.n())).toList())
                    .forEach(console::line);
            Map<Integer, WorkProgress.Progress> before = progressOf(plan);
            try {
                if (unfinished.isPresent()) {
                    // Its work as planned, with tonight's window: Batch restarts the instance the same parameters name.
                    execution = jobOperator.start(nightlyJob, again(unfinished.get().getJobParameters(), request));
                    restarted = true;
                } else {
                    abandonUnfinished();
                    execution = jobOperator.start(nightlyJob, parameters(request, plan));
                    restarted = false;
                }
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the job: " + e.getMessage(), e);
            }
            List<String> failures = new ArrayList<>(execution.getAllFailureExceptions().stream()
                    .filter(failure -> !interruption(failure)).map(Failure::rootMessage).distinct().toList());
            Set<Integer> published = runControl.publishedBy(execution.getId());
            if (execution.getStatus() != BatchStatus.COMPLETED && !published.isEmpty()) {
                exportWhatWasPublished(failures);
            }
            boolean windowClosed = execution.getStatus() == BatchStatus.STOPPED
                    && runControl.windowClosed(execution.getId());
            runControl.windowClosed(execution.getId(), windowClosed);
            Duration elapsed = Duration.between(execution.getStartTime(), execution.getEndTime());
            List<String> notes = publisher.failures(execution).stream()
                    .filter(note -> failures.stream().noneMatch(failure -> failure.contains(note))).toList();
            return new Outcome(execution.getStatus(), plan, restarted, failures, elapsed, windowClosed, published,
                    execution.getStatus() == BatchStatus.COMPLETED ? List.of() : unfinished(execution, plan, before),
                    notes);
        }
    }

    /**
     * A run that did not complete skipped its export step, but the sizes it published are
     * complete and checked: they are exported all the same.
     */
    private void exportWhatWasPublished(List<String> failures) {
        try {
            exporter.exportAll(Path.of(properties.outputDir()));
        } catch (RuntimeException e) {
            failures.add("the export of the published sizes failed: " + Failure.rootMessage(e));
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
     * We hold the lock, so an execution still marked running belongs to a process that died: mark
     * it and its running steps FAILED so that it can be restarted.
     */
    private void recoverExecutionsOfDeadRuns() {
        Set<Long> suspects = new java.util.TreeSet<>();
        jobRepository.findRunningJobExecutions(NightlyJobConfiguration.JOB_NAME)
                .forEach(execution -> suspects.add(execution.getId()));
        JobInstance last = jobRepository.getLastJobInstance(NightlyJobConfiguration.JOB_NAME);
        if (last != null && jobRepository.getLastJobExecution(last) != null) {
            suspects.add(jobRepository.getLastJobExecution(last).getId());
        }
        for (long id : suspects) {
            markFailedIfLeftRunning(jobRepository.getJobExecution(id));
        }
    }

    private void markFailedIfLeftRunning(JobExecution execution) {
        LocalDateTime now = LocalDateTime.now();
        boolean leftRunning = execution.getStatus().isRunning() || execution.getStatus() == BatchStatus.STOPPING;
        for (StepExecution step : execution.getStepExecutions()) {
            // UNKNOWN: a partition whose last update failed; Spring Batch refuses to restart it as it is.
            if (step.getStatus().isRunning() || step.getStatus() == BatchStatus.STOPPING
                    || step.getStatus() == BatchStatus.UNKNOWN) {
                step.setStatus(BatchStatus.FAILED);
                step.setExitStatus(ExitStatus.FAILED.addExitDescription(DIED));
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
