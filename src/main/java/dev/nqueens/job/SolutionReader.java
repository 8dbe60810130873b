package dev.nqueens.job;

import dev.nqueens.solver.Placement;
import dev.nqueens.solver.StackBacktracker;
import dev.nqueens.store.SolutionStore;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Reads the solutions of one size from the stack backtracker, in lexicographic order. On open it
 * continues right after the last solution already stored, so a restarted or repeated partition
 * neither loses nor duplicates a solution: the database, committed chunk by chunk, is the
 * checkpoint.
 */
// Not final: step-scoped beans are proxied by subclassing.
class SolutionReader implements ItemStreamReader<NumberedPlacement> {

    private final int n;
    private final SolutionStore store;
    private StackBacktracker backtracker;
    private long nextOrdinal;

    SolutionReader(int n, SolutionStore store) {
        this.n = n;
        this.store = store;
    }

    @Override
    public void open(ExecutionContext executionContext) {
        backtracker = new StackBacktracker(n);
        store.lastStoredPlacement(n).map(Placement::parse).ifPresent(backtracker::resumeAfter);
        nextOrdinal = store.storedSolutionCount(n) + 1;
    }

    @Override
    public NumberedPlacement read() {
        if (!backtracker.next()) {
            return null;
        }
        return new NumberedPlacement(nextOrdinal++, backtracker.current());
    }
}
