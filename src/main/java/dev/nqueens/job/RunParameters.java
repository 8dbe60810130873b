package dev.nqueens.job;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;

/**
 * What a run's job parameters say: the request that identifies its work (sizes, storage limits,
 * force, the sizes it may lower and the run's key) and, not identifying, its plan and the end of its time window.
 */
final class RunParameters {

    static final String SIZES = "sizes";
    static final String LIMITS = "storage";
    static final String FORCE = "force";
    /** The sizes the run may lower, dropping rows; absent when none (as in runs of earlier builds). */
    static final String LOWER = "lower";

    static final String KEY = "run";
    static final String PLAN = "plan";
    /** When the run's time window closes (an instant), or empty: not part of what identifies the run's work. */
    static final String DEADLINE = "deadline";

    private RunParameters() {}

    /** The parameters of a new run of {@code request} with {@code plan}. */
    static JobParameters of(RunRequest request, List<SizePlan> plan) {
        JobParametersBuilder builder = new JobParametersBuilder()
                .addString(SIZES, request.sizes().toString())
                .addString(LIMITS, request.limits().toString())
                .addString(FORCE, String.valueOf(request.force()))
                .addLocalDateTime(KEY, request.key())
                .addString(PLAN, SizePlan.format(plan), false);
        if (!request.lower().isEmpty()) {
            builder.addString(LOWER, request.lowerText());
        }
        return withDeadline(builder, request);
    }

    /** The parameters of an unfinished run, its plan kept, its deadline that of {@code request}. */
    static JobParameters again(JobParameters unfinished, RunRequest request) {
        JobParametersBuilder builder = new JobParametersBuilder(
                        new JobParameters(unfinished.getIdentifyingParameters()))
                .addString(PLAN, unfinished.getString(PLAN), false);
        return withDeadline(builder, request);
    }

    /** Whether {@code execution} ran the work {@code request} asks for (a restart may finish it). */
    static boolean sameRequest(JobExecution execution, RunRequest request) {
        JobParameters parameters = execution.getJobParameters();
        return Objects.equals(parameters.getString(SIZES), request.sizes().toString())
                && Objects.equals(parameters.getString(LIMITS), request.limits().toString())
                && Objects.equals(parameters.getString(FORCE), String.valueOf(request.force()))
                && Objects.equals(Objects.requireNonNullElse(parameters.getString(LOWER), ""), request.lowerText());
    }

    /** The plan a run's execution works to. */
    static List<SizePlan> planOf(JobExecution execution) {
        return SizePlan.parse(execution.getJobParameters().getString(PLAN));
    }

    /** The end of a run's time window, from its job parameters. */
    static Optional<Instant> deadlineOf(JobParameters parameters) {
        return Optional.ofNullable(parameters.getString(DEADLINE)).map(Instant::parse);
    }

    private static JobParameters withDeadline(JobParametersBuilder builder, RunRequest request) {
        request.deadline().ifPresent(deadline -> builder.addString(DEADLINE, deadline.toString(), false));
        return builder.toJobParameters();
    }
}
