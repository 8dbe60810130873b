package dev.nqueens.job;

import dev.nqueens.count.CountResult;
import dev.nqueens.count.CountingEngine;
import dev.nqueens.count.WorkUnit;
import dev.nqueens.store.ClassCounts;
import dev.nqueens.store.CountPartitionResult;
import dev.nqueens.store.SolutionStore;
import java.util.List;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Counts one sub-partition of a size with the counting engine and records its result in the
 * step's transaction. A sub-partition already recorded (by an interrupted earlier run) is not
 * counted again.
 */
class CountTasklet implements Tasklet {

    private final int n;
    private final int partitionCount;
    private final int partitionIndex;
    private final SolutionStore store;

    CountTasklet(int n, int partitionCount, int partitionIndex, SolutionStore store) {
        this.n = n;
        this.partitionCount = partitionCount;
        this.partitionIndex = partitionIndex;
        this.store = store;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        if (store.isCountPartitionDone(n, partitionCount, partitionIndex)) {
            return RepeatStatus.FINISHED;
        }
        long start = System.nanoTime();
        List<WorkUnit> units = CountingEngine.workUnits(n);
        CountingEngine engine = new CountingEngine(n);
        CountResult sum = CountResult.ZERO;
        int counted = 0;
        for (int unit = partitionIndex; unit < units.size(); unit += partitionCount) {
            sum = sum.plus(engine.count(units.get(unit)));
            counted++;
        }
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        store.saveCountPartition(new CountPartitionResult(n, partitionCount, partitionIndex, counted,
                new ClassCounts(sum.total(), sum.fundamental(), sum.rot90Classes(), sum.rot180Classes(),
                        sum.asymmetricClasses()), elapsedMs));
        contribution.incrementWriteCount(1);
        return RepeatStatus.FINISHED;
    }
}
