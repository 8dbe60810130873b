package dev.nqueens.job;

import dev.nqueens.store.SolutionTables;
import dev.nqueens.store.StoredLevel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.batch.core.partition.Partitioner;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * One partition per board size the plan stores row by row (levels ALL and FUNDAMENTAL), largest
 * first so the longest partitions start earliest. A size's solutions are numbered in one
 * lexicographic sequence, so a stored size is not split further.
 */
class SolvePartitioner implements Partitioner {

    /** ExecutionContext key: the board size a worker solves. */
    static final String SIZE_KEY = "n";
    /** ExecutionContext key: the storage level, a {@link dev.nqueens.store.StoredLevel} name. */
    static final String LEVEL_KEY = "level";
    /** ExecutionContext key: the tables written, a {@link SolutionTables} name. */
    static final String TABLES_KEY = "tables";

    private final List<SizePlan> plan;

    SolvePartitioner(List<SizePlan> plan) {
        this.plan = plan;
    }

    @Override
    public Map<String, ExecutionContext> partition(int gridSize) {
        Map<String, ExecutionContext> partitions = new LinkedHashMap<>();
        for (SizePlan size : SizePlan.toComputeLargestFirst(plan, level -> level != StoredLevel.COUNT)) {
            ExecutionContext context = new ExecutionContext();
            context.putInt(SIZE_KEY, size.n());
            context.putString(LEVEL_KEY, size.level().name());
            context.putString(TABLES_KEY, tablesFor(size).name());
            partitions.put(String.format("n%02d", size.n()), context);
        }
        return partitions;
    }

    static SolutionTables tablesFor(SizePlan size) {
        return size.action() == SizePlan.Action.REPLACE ? SolutionTables.STAGED : SolutionTables.LIVE;
    }
}
