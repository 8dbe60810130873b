package dev.nqueens.job;

import java.time.LocalDateTime;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * What becomes of the executions earlier runs left behind, decided by a run that holds the run
 * lock: one left running belongs to a process that died and is marked failed; the last one, failed
 * or stopped, is restarted when the new run asks for the same work, and abandoned otherwise.
 */
@Component
class EarlierExecutions {

    private static final String DIED = "the process running it ended without finishing it";
    private static final String UNRECORDED = "its end could not be recorded: the database went away";

    private final JobRepository jobRepository;
    private final JobOperator jobOperator;
    private final PartitionExecution partitionExecution;
    private final JdbcTemplate jdbc;

    EarlierExecutions(
            JobRepository jobRepository,
            JobOperator jobOperator,
            PartitionExecution partitionExecution,
            JdbcTemplate jdbc) {
        this.jobRepository = jobRepository;
        this.jobOperator = jobOperator;
        this.partitionExecution = partitionExecution;
        this.jdbc = jdbc;
    }

    /**
     * We hold the lock, so an execution still marked running belongs to a process that died (or to
     * this run's last attempt, which lost the database): mark it and its running steps FAILED so
     * that it can be restarted, and end its partitions' claims, so that none of them writes again.
     * An execution or step Batch left UNKNOWN (its update failed with the database away) is marked
     * FAILED too: Batch refuses to restart a job instance with one.
     */
    void recoverThoseOfDeadRuns() {
        Set<Long> suspects = new TreeSet<>();
        jobRepository
                .findRunningJobExecutions(NightlyJobConfiguration.JOB_NAME)
                .forEach(execution -> suspects.add(execution.getId()));
        suspects.addAll(jdbc.queryForList(
                "SELECT job_execution_id FROM batch_job_execution WHERE status = 'UNKNOWN'", Long.class));
        JobInstance last = jobRepository.getLastJobInstance(NightlyJobConfiguration.JOB_NAME);
        JobExecution lastExecution = last == null ? null : jobRepository.getLastJobExecution(last);
        if (lastExecution != null) {
            suspects.add(lastExecution.getId());
        }
        for (long id : suspects) {
            markFailedIfLeftRunning(jobRepository.getJobExecution(id));
            partitionExecution.recall(id);
        }
    }

    /** The last execution, if it failed or was stopped and ran the work {@code request} asks for. */
    Optional<JobExecution> unfinishedOf(RunRequest request) {
        return lastUnfinished().filter(last -> RunParameters.sameRequest(last, request));
    }

    /** A different request supersedes the unfinished run: it is never restarted later. */
    void abandonUnfinished() {
        lastUnfinished().ifPresent(execution -> {
            try {
                jobOperator.abandon(execution);
            } catch (Exception e) {
                throw new IllegalStateException("cannot abandon execution " + execution.getId(), e);
            }
        });
    }

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
        return status == BatchStatus.FAILED || status == BatchStatus.STOPPED
                ? Optional.of(execution)
                : Optional.empty();
    }

    private void markFailedIfLeftRunning(JobExecution execution) {
        LocalDateTime now = LocalDateTime.now();
        boolean leftRunning = execution.getStatus().isRunning()
                || execution.getStatus() == BatchStatus.STOPPING
                || execution.getStatus() == BatchStatus.UNKNOWN;
        for (StepExecution step : execution.getStepExecutions()) {
            // UNKNOWN: a step or partition whose last update failed; Spring Batch refuses to restart it as it is.
            BatchStatus status = step.getStatus();
            if (status.isRunning() || status == BatchStatus.STOPPING || status == BatchStatus.UNKNOWN) {
                step.setStatus(BatchStatus.FAILED);
                step.setExitStatus(
                        status == BatchStatus.UNKNOWN
                                ? new ExitStatus(LostDatabase.EXIT_CODE, UNRECORDED)
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
}
