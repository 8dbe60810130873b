package dev.nqueens.job;

import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.CountUnits;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.batch.core.partition.Partitioner;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * Deals the work units of each size the plan only counts into the partitions its
 * {@code count_plan} fixes (see {@link CountPlanner}): partition k of K takes units k, k+K, k+2K,
 * … so every partition gets a like share of cheap and expensive units. A size counted twice (no
 * published values) has each partition twice, the second replicas after all the first ones, so
 * that two different workers count them (see {@link OrderedSplitter} for the order partitions run
 * in). Only partitions with units still to count are handed out: a size published meanwhile (a
 * restarted run) has no plan any more and no partitions, a partition whose units are all stored is
 * done, and a partition whose units' two counts disagreed (and were dropped) is handed out again.
 */
class CountPartitioner implements Partitioner {

    private final List<SizePlan> plan;
    private final CountUnits countUnits;

    CountPartitioner(List<SizePlan> plan, CountUnits countUnits) {
        this.plan = plan;
        this.countUnits = countUnits;
    }

    @Override
    public Map<String, ExecutionContext> partition(int gridSize) {
        Map<String, ExecutionContext> partitions = new LinkedHashMap<>();
        for (SizePlan size : SizePlan.toCompute(plan, level -> level == StoredLevel.COUNT)) {
            CountUnits.Plan split = countUnits.plan(size.n()).orElse(null);
            if (split == null) {
                continue;
            }
            for (int replica = 1; replica <= split.replicas(); replica++) {
                BitSet counted = countUnits.countedUnits(size.n(), replica);
                for (int index = 0; index < split.partitions(); index++) {
                    if (allCounted(counted, index, split)) {
                        continue;
                    }
                    CountPartition partition =
                            new CountPartition(size.n(), split.partitions(), index, replica, split.unitFingerprint());
                    ExecutionContext context = new ExecutionContext();
                    partition.writeTo(context);
                    context.putInt(OrderedSplitter.ORDER_KEY, partitions.size());
                    partitions.put(partition.name(), context);
                }
            }
        }
        return partitions;
    }

    private static boolean allCounted(BitSet counted, int index, CountUnits.Plan split) {
        for (int unit = index; unit < split.workUnits(); unit += split.partitions()) {
            if (!counted.get(unit)) {
                return false;
            }
        }
        return true;
    }
}
