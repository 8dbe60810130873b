package dev.nqueens.job;

import dev.nqueens.count.CountingEngine;
import dev.nqueens.store.StoredLevel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.batch.core.partition.Partitioner;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * Splits each size the plan only counts into sub-partitions of the counting engine's work units:
 * sub-partition k of K takes units k, k+K, k+2K, … so every sub-partition gets a like share of
 * cheap and expensive units. K depends on the size alone, so any run (or another machine) finds
 * the same sub-partitions and can skip those already recorded in {@code count_partition}.
 */
class CountPartitioner implements Partitioner {

    static final String SIZE_KEY = SolvePartitioner.SIZE_KEY;
    /** ExecutionContext key: how many sub-partitions the size is split into. */
    static final String PARTITION_COUNT_KEY = "partitionCount";
    /** ExecutionContext key: which sub-partition this is, 0-based. */
    static final String PARTITION_INDEX_KEY = "partitionIndex";

    /** Sub-partitions per size at most: enough to keep every core busy to the end. */
    static final int MAX_PARTITIONS = 64;
    /** Work units per sub-partition at least, so tiny sizes are not split into noise. */
    static final int MIN_UNITS_PER_PARTITION = 8;

    private final List<SizePlan> plan;

    CountPartitioner(List<SizePlan> plan) {
        this.plan = plan;
    }

    @Override
    public Map<String, ExecutionContext> partition(int gridSize) {
        Map<String, ExecutionContext> partitions = new LinkedHashMap<>();
        for (SizePlan size : SizePlan.toComputeLargestFirst(plan, level -> level == StoredLevel.COUNT)) {
            int count = partitionCount(size.n());
            for (int index = 0; index < count; index++) {
                ExecutionContext context = new ExecutionContext();
                context.putInt(SIZE_KEY, size.n());
                context.putInt(PARTITION_COUNT_KEY, count);
                context.putInt(PARTITION_INDEX_KEY, index);
                partitions.put(String.format("n%02d-%02d-of-%02d", size.n(), index, count), context);
            }
        }
        return partitions;
    }

    /** The number of sub-partitions of size {@code n}: a function of the size alone. */
    static int partitionCount(int n) {
        int units = CountingEngine.workUnits(n).size();
        return Math.max(1, Math.min(MAX_PARTITIONS, units / MIN_UNITS_PER_PARTITION));
    }
}
