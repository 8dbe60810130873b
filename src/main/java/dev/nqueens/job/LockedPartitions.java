package dev.nqueens.job;

import org.springframework.batch.core.step.StepExecution;

/**
 * The guard of partitions run by this process's thread pool: a partition writes only while this
 * process holds the run lock under the epoch it started with, checked in each write's transaction
 * (see {@link RunLock#checkHeld}).
 */
final class LockedPartitions implements PartitionGuard {

    private final RunLock runLock;

    LockedPartitions(RunLock runLock) {
        this.runLock = runLock;
    }

    @Override
    public void checkStillOwned(StepExecution partition) {
        runLock.checkHeld();
    }

    @Override
    public String executor() {
        return "local";
    }
}
