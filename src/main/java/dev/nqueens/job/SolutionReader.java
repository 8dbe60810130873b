package dev.nqueens.job;

import dev.nqueens.solver.Placement;
import dev.nqueens.solver.StackBacktracker;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.SolutionTables;
import dev.nqueens.store.StoredLevel;
import dev.nqueens.symmetry.SymmetryReducer;
import java.util.Optional;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Reads the solutions of one size from the stack backtracker in lexicographic order (at level
 * FUNDAMENTAL only the class representatives, numbered as classes). On open it continues right
 * after the last row already stored in its tables, so a restarted or repeated partition neither
 * loses nor duplicates a solution: the stored rows, committed chunk by chunk, are the checkpoint.
 */
// Not final: step-scoped beans are proxied by subclassing.
class SolutionReader implements ItemStreamReader<NumberedPlacement> {

    private final int n;
    private final StoredLevel level;
    private final SolutionTables tables;
    private final SolutionStore store;
    private StackBacktracker backtracker;
    private SymmetryReducer reducer;
    private long nextOrdinal;

    SolutionReader(int n, StoredLevel level, SolutionTables tables, SolutionStore store) {
        this.n = n;
        this.level = level;
        this.tables = tables;
        this.store = store;
    }

    @Override
    public void open(ExecutionContext executionContext) {
        backtracker = new StackBacktracker(n);
        reducer = new SymmetryReducer(n);
        store.trimToCommittedPrefix(n, tables, level);
        Optional<String> last = level == StoredLevel.ALL ? store.lastSolution(n, tables)
                : store.lastRepresentative(n, tables);
        last.map(Placement::parse).ifPresent(backtracker::resumeAfter);
        nextOrdinal = 1 + (level == StoredLevel.ALL ? store.solutionCount(n, tables)
                : store.fundamentalCount(n, tables));
    }

    @Override
    public NumberedPlacement read() {
        while (backtracker.next()) {
            Placement solution = backtracker.current();
            if (level == StoredLevel.ALL || reducer.reduce(solution).isRepresentative(solution)) {
                return new NumberedPlacement(nextOrdinal++, solution);
            }
        }
        return null;
    }
}
