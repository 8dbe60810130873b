package dev.nqueens.job;

import dev.nqueens.settings.StoredLevel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.batch.core.partition.Partitioner;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * One partition per board size the plan stores row by row (levels ALL and FUNDAMENTAL; see
 * {@link OrderedSplitter} for the order they run in). A size's solutions are numbered in one
 * lexicographic sequence, so a stored size is not split further.
 */
class SolvePartitioner implements Partitioner {

    /** ExecutionContext key: the board size a worker solves. */
    static final String SIZE_KEY = "n";
    /** ExecutionContext key: the storage level, a {@link dev.nqueens.settings.StoredLevel} name. */
    static final String LEVEL_KEY = "level";

    private final List<SizePlan> plan;

    SolvePartitioner(List<SizePlan> plan) {
        this.plan = plan;
    }

    @Override
    public Map<String, ExecutionContext> partition(int gridSize) {
        Map<String, ExecutionContext> partitions = new LinkedHashMap<>();
        for (SizePlan size : SizePlan.toCompute(plan, level -> level != StoredLevel.COUNT)) {
            ExecutionContext context = new ExecutionContext();
            context.putInt(OrderedSplitter.ORDER_KEY, partitions.size());
            context.putInt(SIZE_KEY, size.n());
            context.putString(LEVEL_KEY, size.level().name());
            partitions.put(partitionName(size.n()), context);
        }
        return partitions;
    }

    /** {@code n08}: the worker step of size 8 is {@code solveSize:n08}. */
    static String partitionName(int n) {
        return String.format("n%02d", n);
    }
}
