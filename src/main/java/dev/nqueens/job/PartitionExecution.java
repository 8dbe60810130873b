package dev.nqueens.job;

import org.springframework.batch.core.partition.PartitionHandler;
import org.springframework.batch.core.step.Step;

/**
 * Where the partitions of the {@code solve} and {@code count} steps run: on this process's thread
 * pool, or on the workers of a cluster.
 */
public interface PartitionExecution {

    /** The handler that executes the partitions of {@code workerStep} (named {@code workerStepName}). */
    PartitionHandler handler(String workerStepName, Step workerStep);

    /** How many partitions can run at once: threads of the pool, or of the live workers. */
    int capacity();

    /**
     * How many times each work unit of size {@code n} is counted, by as many different executors:
     * 2 where a result cannot be checked against published values and must be cross-checked.
     */
    int replicas(int n, boolean published);

    /**
     * Ends the claims on the partitions of a run that is being marked failed, once the writes in
     * flight under them have committed, so that none of them writes again: a restart runs them anew.
     * Partitions of this process's pool have ended with the job; a cluster's workers may be running
     * some still.
     */
    default void recall(long jobExecutionId) {}
}
