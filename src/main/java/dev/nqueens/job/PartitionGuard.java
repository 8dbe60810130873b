package dev.nqueens.job;

import org.springframework.batch.core.step.StepExecution;

/**
 * Whether the process running a partition still owns it. A partition writes only while it does:
 * each write first calls {@link #checkStillOwned}, in the write's own transaction. Partitions run
 * on the local thread pool own theirs while their run holds the run lock ({@link LockedPartitions});
 * a cluster worker owns one while it holds its lease and the partition's run holds the run lock.
 */
public interface PartitionGuard {

    /**
     * @throws PartitionLostException if this process no longer owns {@code partition}: it must
     *     stop without writing
     */
    void checkStillOwned(StepExecution partition);

    /** Who executes partitions here, as recorded with their results: {@code local}, or a worker's {@code host:pid}. */
    String executor();

    /** Another process owns the partition now (or its run is over): this one must stop without writing. */
    final class PartitionLostException extends IllegalStateException {
        public PartitionLostException(String message) {
            super(message);
        }
    }
}
