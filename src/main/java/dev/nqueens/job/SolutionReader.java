package dev.nqueens.job;

import dev.nqueens.solver.RepresentativeEnumerator;
import dev.nqueens.solver.Placement;
import dev.nqueens.solver.StackBacktracker;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.Generations;
import dev.nqueens.store.StoredLevel;
import java.util.Optional;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Reads the solutions of one size in lexicographic order: every solution from the stack
 * backtracker (level ALL), or only the class representatives from the representative enumerator,
 * numbered as classes (level FUNDAMENTAL), which never visits most of the other 7/8. On open it
 * finds (or starts) the generation the size is being computed into and continues right after the
 * last row already stored in it, so a restarted or repeated partition neither loses nor duplicates
 * a solution: the stored rows, committed chunk by chunk, are the checkpoint.
 */
// Not final: step-scoped beans are proxied by subclassing.
class SolutionReader implements ItemStreamReader<NumberedPlacement> {

    private final int n;
    private final StoredLevel level;
    private final Generations generations;
    private final SolutionStore store;
    private StackBacktracker backtracker;
    private RepresentativeEnumerator representatives;
    private long nextOrdinal;

    SolutionReader(int n, StoredLevel level, Generations generations, SolutionStore store) {
        this.n = n;
        this.level = level;
        this.generations = generations;
        this.store = store;
    }

    @Override
    public void open(ExecutionContext executionContext) {
        int generation = generations.building(n);
        store.trimToCommittedPrefix(n, generation, level);
        if (level == StoredLevel.ALL) {
            backtracker = new StackBacktracker(n);
            store.lastSolution(n, generation).map(Placement::parse).ifPresent(backtracker::resumeAfter);
            nextOrdinal = 1 + store.solutionCount(n, generation);
        } else {
            Optional<Placement> last = store.lastRepresentative(n, generation).map(Placement::parse);
            representatives = new RepresentativeEnumerator(n, last.map(Placement::columns).orElse(null));
            nextOrdinal = 1 + store.representativeCount(n, generation);
        }
    }

    @Override
    public NumberedPlacement read() {
        if (level == StoredLevel.ALL) {
            return backtracker.next() ? new NumberedPlacement(nextOrdinal++, backtracker.current()) : null;
        }
        int[] representative = representatives.next();
        return representative == null ? null : new NumberedPlacement(nextOrdinal++, new Placement(representative));
    }
}
