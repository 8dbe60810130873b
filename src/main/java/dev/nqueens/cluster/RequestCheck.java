package dev.nqueens.cluster;

import dev.nqueens.job.CountPartition;
import dev.nqueens.job.RunControl;
import dev.nqueens.job.WorkUnitListMismatchException;
import dev.nqueens.job.WorkUnits;
import dev.nqueens.store.CountUnits;
import java.util.List;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.integration.partition.StepExecutionRequest;

/**
 * What a worker does with a partition request it has taken from the queue ({@link PartitionWorker}):
 * a request is not trusted, so it is checked against the database. Dropped if its partition is
 * gone, finished, or claimed by a live worker, or its run is over or its manager silent; refused
 * (back to the queue) if its work units were listed by another version of the engine; passed on
 * if this worker counted the other replica of a cross-checked unit; otherwise its partition's
 * lease is claimed and it is run.
 */
final class RequestCheck {

    /** What a look at a request decided. */
    enum Verdict {
        RUN,
        DROP,
        PASS_ON,
        REFUSE
    }

    /** The verdict on {@code request}, its partition (null if there is none) and why, for a drop or a refusal. */
    record Decision(Verdict verdict, StepExecutionRequest request, StepExecution partition, String why) {}

    private final JobRepository jobRepository;
    private final ClusterRecords records;
    private final RunControl runControl;
    private final CountUnits countUnits;
    private final ClusterConfiguration.ClusterSettings settings;

    RequestCheck(
            JobRepository jobRepository,
            ClusterRecords records,
            RunControl runControl,
            CountUnits countUnits,
            ClusterConfiguration.ClusterSettings settings) {
        this.jobRepository = jobRepository;
        this.records = records;
        this.runControl = runControl;
        this.countUnits = countUnits;
        this.settings = settings;
    }

    /** Checks a request against the database and, if it is to be run, claims its partition. */
    synchronized Decision decide(StepExecutionRequest request) {
        StepExecution partition = jobRepository.getStepExecution(request.getStepExecutionId());
        if (partition == null) {
            return new Decision(Verdict.DROP, request, null, "no such partition");
        }
        if (!partition.getStatus().isRunning()) {
            return new Decision(Verdict.DROP, request, partition, "the partition has ended " + partition.getStatus());
        }
        JobExecution run = partition.getJobExecution();
        if (!run.getStatus().isRunning() && run.getStatus() != BatchStatus.STOPPING) {
            return new Decision(
                    Verdict.DROP,
                    request,
                    partition,
                    "its run " + run.getId() + " has ended "
                            + run.getStatus() + " (" + run.getExitStatus().getExitCode() + ", ended " + run.getEndTime()
                            + ", last updated " + run.getLastUpdated() + ")");
        }
        if (!runControl.managerAlive(run.getId(), settings.workerTimeout())) {
            return new Decision(
                    Verdict.DROP,
                    request,
                    partition,
                    "the manager of run " + run.getId() + " has not been heard of for "
                            + settings.workerTimeout().toSeconds() + " s");
        }
        ClusterRecords.Lease lease = records.lease(partition.getId()).orElse(null);
        if (lease != null && !lease.expired() && !lease.workerId().equals(settings.processId())) {
            return new Decision(Verdict.DROP, request, partition, "worker " + lease.workerId() + " works on it");
        }
        CountPartition counting = CountPartition.of(partition.getExecutionContext());
        if (counting != null) {
            if (!WorkUnits.fingerprint(counting.n()).equals(counting.unitFingerprint())) {
                return new Decision(
                        Verdict.REFUSE,
                        request,
                        partition,
                        new WorkUnitListMismatchException(counting.n(), counting.unitFingerprint()).getMessage());
            }
            if (countedTheOtherReplica(counting, partition)) {
                return new Decision(Verdict.PASS_ON, request, partition, "it counted the other replica");
            }
        }
        if (!records.claim(
                partition.getId(),
                run.getId(),
                partition.getStepName(),
                settings.processId(),
                settings.workerTimeout())) {
            return new Decision(Verdict.DROP, request, partition, "another worker claimed it first");
        }
        return new Decision(Verdict.RUN, request, partition, null);
    }

    /** A unit's two counts must come from two different workers. */
    private boolean countedTheOtherReplica(CountPartition counting, StepExecution partition) {
        String other = partition.getStepName().endsWith("-r2")
                ? partition.getStepName().substring(0, partition.getStepName().length() - 3)
                : partition.getStepName() + "-r2";
        return countUnits
                        .countedBy(counting.n(), counting.otherReplica(), counting.partitions(), counting.index())
                        .contains(settings.processId())
                || records.holdsAny(settings.processId(), List.of(other));
    }
}
