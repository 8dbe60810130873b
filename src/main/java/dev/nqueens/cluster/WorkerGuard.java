package dev.nqueens.cluster;

import dev.nqueens.job.PartitionGuard;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.springframework.batch.core.step.StepExecution;

/**
 * A worker owns a partition while it holds the partition's lease: before each write the lease is
 * renewed in the write's transaction, and a worker that finds it lost (expired and perhaps taken
 * by another worker, or the run is over) stops without writing. A partition this worker is handing
 * back (it was told to stop) never writes again: its thread waits for the process to end.
 */
final class WorkerGuard implements PartitionGuard {

    private final ClusterRecords records;
    private final ClusterConfiguration.ClusterSettings settings;
    private final Set<Long> handingBack = ConcurrentHashMap.newKeySet();

    WorkerGuard(ClusterRecords records, ClusterConfiguration.ClusterSettings settings) {
        this.records = records;
        this.settings = settings;
    }

    @Override
    public void checkStillOwned(StepExecution partition) {
        if (handingBack.contains(partition.getId())) {
            while (true) {
                LockSupport.park(this);
            }
        }
        if (!records.renewBeforeWrite(partition.getId(), settings.processId(), settings.workerTimeout())) {
            throw new PartitionLostException("worker " + settings.processId() + " lost its lease on "
                    + partition.getStepName() + " (it expired, or the run is over): it stops without writing");
        }
    }

    @Override
    public String executor() {
        return settings.processId();
    }

    /** From now on the partition writes nothing here: this worker hands it back. */
    void handBack(long stepExecutionId) {
        handingBack.add(stepExecutionId);
    }
}
