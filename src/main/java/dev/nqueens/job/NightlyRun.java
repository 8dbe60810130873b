package dev.nqueens.job;

import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
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

    /** How a run ended: the job's status, its plan, whether it restarted an earlier execution. */
    public record Outcome(BatchStatus status, List<SizePlan> plan, boolean restarted, List<String> failures,
            Duration elapsed) {

        public boolean completed() {
            return status == BatchStatus.COMPLETED;
        }

        /** The sizes this run computed. */
        public List<Integer> computedSizes() {
            return plan.stream().filter(SizePlan::computes).map(SizePlan::n).toList();
        }
    }

    private final JobOperator jobOperator;
    private final JobRepository jobRepository;
    private final Job nightlyJob;
    private final SolutionStore store;
    private final RunLock runLock;

    NightlyRun(JobOperator jobOperator, JobRepository jobRepository, Job nightlyJob, SolutionStore store,
            RunLock runLock) {
        this.jobOperator = jobOperator;
        this.jobRepository = jobRepository;
        this.nightlyJob = nightlyJob;
        this.store = store;
        this.runLock = runLock;
    }

    /**
     * Runs the job to its end in the calling thread.
     *
     * @throws RunInProgressException if another run holds the database
     */
    public Outcome run(RunRequest request) {
        try (RunLock.Held lock = runLock.acquire()) {
            recoverExecutionsOfDeadRuns();
            JobExecution execution;
            boolean restarted;
            Optional<JobExecution> unfinished = lastUnfinished().filter(last -> sameRequest(last, request));
            try {
                if (unfinished.isPresent()) {
                    execution = jobOperator.restart(unfinished.get());
                    restarted = true;
                } else {
                    abandonUnfinished();
                    execution = jobOperator.start(nightlyJob, parameters(request, plan(request)));
                    restarted = false;
                }
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the job: " + e.getMessage(), e);
            }
            List<String> failures = execution.getAllFailureExceptions().stream()
                    .map(NightlyRun::rootMessage).distinct().toList();
            Duration elapsed = Duration.between(execution.getStartTime(), execution.getEndTime());
            return new Outcome(execution.getStatus(),
                    SizePlan.parse(execution.getJobParameters().getString(PLAN)), restarted, failures, elapsed);
        }
    }

    /**
     * Asks a running job of this process to stop at its next chunk boundary.
     *
     * @return true if a running execution was told to stop
     */
    public boolean stopRunning() {
        boolean stopped = false;
        for (JobExecution running : jobRepository.findRunningJobExecutions(NightlyJobConfiguration.JOB_NAME)) {
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
            if (step.getStatus().isRunning() || step.getStatus() == BatchStatus.STOPPING) {
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

    private static JobParameters parameters(RunRequest request, List<SizePlan> plan) {
        return new JobParametersBuilder()
                .addString(SIZES, request.sizes().toString())
                .addString(LIMITS, request.limits().toString())
                .addString(FORCE, String.valueOf(request.force()))
                .addLocalDateTime(KEY, request.key())
                .addString(PLAN, SizePlan.format(plan), false)
                .toJobParameters();
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse(message);
    }
}
