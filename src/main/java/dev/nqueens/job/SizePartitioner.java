package dev.nqueens.job;

import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.StoredLevel;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.batch.core.partition.Partitioner;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * One partition per board size still to solve; sizes whose every solution is already stored are
 * left out. The largest sizes come first so the longest partitions start earliest.
 */
// Not final: step-scoped beans are proxied by subclassing.
class SizePartitioner implements Partitioner {

    /** ExecutionContext key: the board size a worker solves. */
    static final String SIZE_KEY = "n";

    private final BoardSizes sizes;
    private final SolutionStore store;

    SizePartitioner(BoardSizes sizes, SolutionStore store) {
        this.sizes = sizes;
        this.store = store;
    }

    @Override
    public Map<String, ExecutionContext> partition(int gridSize) {
        Map<String, ExecutionContext> partitions = new LinkedHashMap<>();
        for (int i = sizes.sizes().size() - 1; i >= 0; i--) {
            int n = sizes.sizes().get(i);
            if (isComplete(n)) {
                continue;
            }
            ExecutionContext context = new ExecutionContext();
            context.putInt(SIZE_KEY, n);
            partitions.put(partitionName(n), context);
        }
        return partitions;
    }

    private boolean isComplete(int n) {
        return store.summary(n).filter(summary -> summary.stored() == StoredLevel.ALL).isPresent();
    }

    static String partitionName(int n) {
        return String.format("n%02d", n);
    }
}
