package dev.nqueens.job;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.stereotype.Service;

/** Starts the nightly job for a set of sizes and reports how it ended. */
@Service
public class NightlyRun {

    /** How a run ended: the job's status, the sizes solved by it, and what failed. */
    public record Outcome(BatchStatus status, List<Integer> solvedSizes, List<String> failures, Duration elapsed) {

        public boolean completed() {
            return status == BatchStatus.COMPLETED;
        }
    }

    private final JobOperator jobOperator;
    private final Job nightlyJob;

    NightlyRun(JobOperator jobOperator, Job nightlyJob) {
        this.jobOperator = jobOperator;
        this.nightlyJob = nightlyJob;
    }

    /**
     * Runs the job to its end in the calling thread.
     *
     * @throws IllegalStateException if the job repository refuses to start it
     */
    public Outcome run(BoardSizes sizes) {
        JobParameters parameters = new JobParametersBuilder()
                .addString(NightlyJobConfiguration.SIZES_PARAMETER, sizes.toString())
                .addLocalDateTime("started", LocalDateTime.now())
                .toJobParameters();
        JobExecution execution;
        try {
            execution = jobOperator.start(nightlyJob, parameters);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the job: " + e.getMessage(), e);
        }
        List<Integer> solved = execution.getStepExecutions().stream()
                .filter(NightlyJobConfiguration::isSolveSizeStep)
                .filter(step -> step.getStatus() == BatchStatus.COMPLETED)
                .map(step -> step.getExecutionContext().getInt(SizePartitioner.SIZE_KEY))
                .sorted()
                .toList();
        List<String> failures = execution.getAllFailureExceptions().stream()
                .map(NightlyRun::rootMessage)
                .distinct()
                .toList();
        Duration elapsed = Duration.between(execution.getStartTime(), execution.getEndTime());
        return new Outcome(execution.getStatus(), solved, failures, elapsed);
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
