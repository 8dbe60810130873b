package dev.nqueens.job;

import dev.nqueens.count.CountResult;
import dev.nqueens.count.CountingEngine;
import dev.nqueens.count.WorkUnit;
import dev.nqueens.settings.ClassCounts;
import dev.nqueens.store.CountUnits;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Counts the work units of one {@link CountPartition}: each call counts units for up to
 * {@link #BATCH} and stores their results in the call's own transaction, so a partition that is
 * stopped, killed or loses its worker keeps every unit of its earlier calls (a kill costs at most
 * one call's counting), and a unit already stored (by an earlier attempt) is not counted again.
 * Small sizes' units take a millisecond or less, so a transaction each (with Spring Batch's update
 * of the step execution) cost more than the counting (docs/performance.md). Before
 * each unit it checks the run's time window (closed: the units counted are stored, the partition
 * stops, STOPPED, and the next run goes on); before each write, that it still owns the partition.
 */
class CountTasklet implements Tasklet {

    /** The counting one call does before it stores what it counted (a unit begun is finished). */
    static final Duration BATCH = Duration.ofMillis(200);

    private final CountPartition partition;
    private final CountUnits countUnits;
    private final PartitionGuard guard;
    private final RunControl runControl;
    private Deque<WorkUnit> remaining;
    private CountingEngine engine;

    CountTasklet(CountPartition partition, CountUnits countUnits, PartitionGuard guard, RunControl runControl) {
        this.partition = partition;
        this.countUnits = countUnits;
        this.guard = guard;
        this.runControl = runControl;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        StepExecution step = chunkContext.getStepContext().getStepExecution();
        if (remaining == null) {
            remaining = unitsToCount();
        }
        if (remaining.isEmpty()) {
            return RepeatStatus.FINISHED;
        }
        List<CountUnits.UnitResult> counted = new ArrayList<>();
        boolean windowClosed = false;
        long began = System.nanoTime();
        while (!remaining.isEmpty() && System.nanoTime() - began < BATCH.toNanos()) {
            if (runControl.windowClosed(step.getJobExecutionId())) {
                windowClosed = true;
                break;
            }
            WorkUnit unit = remaining.poll();
            long start = System.nanoTime();
            CountResult result = engine().count(unit);
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            counted.add(new CountUnits.UnitResult(
                    partition.n(),
                    unit.index(),
                    partition.replica(),
                    new ClassCounts(
                            result.total(),
                            result.fundamental(),
                            result.rot90Classes(),
                            result.rot180Classes(),
                            result.asymmetricClasses()),
                    elapsedMs,
                    guard.executor(),
                    step.getId()));
        }
        if (!counted.isEmpty()) {
            guard.checkStillOwned(step);
            contribution.incrementWriteCount(countUnits.save(counted));
        }
        if (windowClosed) {
            step.setTerminateOnly();
            return RepeatStatus.FINISHED;
        }
        return remaining.isEmpty() ? RepeatStatus.FINISHED : RepeatStatus.CONTINUABLE;
    }

    /** This partition's units not counted yet, the most expensive first. */
    private Deque<WorkUnit> unitsToCount() {
        int n = partition.n();
        if (!WorkUnits.fingerprint(n).equals(partition.unitFingerprint())) {
            throw new WorkUnitListMismatchException(n, partition.unitFingerprint());
        }
        List<WorkUnit> units = WorkUnits.of(n);
        BitSet counted = countUnits.countedUnits(n, partition.replica());
        Deque<WorkUnit> todo = new ArrayDeque<>();
        units.stream()
                .filter(unit -> unit.index() % partition.partitions() == partition.index())
                .filter(unit -> !counted.get(unit.index()))
                .sorted(Comparator.comparingLong(WorkUnits::cost).reversed())
                .forEach(todo::add);
        return todo;
    }

    private CountingEngine engine() {
        if (engine == null) {
            engine = new CountingEngine(partition.n());
        }
        return engine;
    }
}
