package dev.nqueens.job;

import dev.nqueens.settings.StoredLevel;
import dev.nqueens.solver.Placement;
import dev.nqueens.store.Checkpoint;
import dev.nqueens.store.Generations;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.symmetry.ClassNumbers;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Reads the rows of one size in lexicographic order, classified and numbered
 * ({@link SolutionSource}): every solution (level ALL), or only the class representatives, numbered
 * as classes (level FUNDAMENTAL). On open it finds (or starts) the generation the size is being
 * computed into and continues right after the last row its checkpoint records, so a restarted or
 * repeated partition neither loses nor duplicates a solution: the stored rows and their checkpoint,
 * committed chunk by chunk, are the step's checkpoint. A generation whose rows do not add up to its
 * checkpoint (what H2 can leave after a kill) is started afresh.
 */
// Not final: step-scoped beans are proxied by subclassing.
class SolutionReader implements ItemStreamReader<SolutionSource.Item> {

    private final int n;
    private final StoredLevel level;
    private final long expectedClasses;
    private final Generations generations;
    private final SolutionStore store;
    private SolutionSource source;

    SolutionReader(int n, StoredLevel level, long expectedClasses, Generations generations, SolutionStore store) {
        this.n = n;
        this.level = level;
        this.expectedClasses = expectedClasses;
        this.generations = generations;
        this.store = store;
    }

    @Override
    public void open(ExecutionContext executionContext) {
        Checkpoint checkpoint = store.checkpoint(n, generations.building(n, level));
        if (!store.trimToCheckpoint(checkpoint, level)) {
            generations.restart(n);
            checkpoint = store.checkpoint(n, generations.building(n, level));
        }
        ClassNumbers classes = null;
        if (level == StoredLevel.ALL) {
            store.ensureSquareSymmetry(n);
            classes = classesStored(checkpoint);
        }
        source = new SolutionSource(n, level, checkpoint, classes);
    }

    /** The numbers of the classes the generation holds so far (a resumed size), read back. */
    private ClassNumbers classesStored(Checkpoint checkpoint) {
        ClassNumbers classes = new ClassNumbers(n, expectedClasses);
        store.forEachStoredRepresentative(
                n,
                checkpoint.generation(),
                placement -> classes.addUnordered(Placement.parse(placement).columns()));
        classes.sort();
        if (classes.count() != checkpoint.classes()) {
            throw new ItemStreamException("n=" + n + ": generation " + checkpoint.generation() + " holds "
                    + classes.count() + " classes, its checkpoint " + checkpoint.classes());
        }
        return classes;
    }

    @Override
    public SolutionSource.Item read() {
        return source.next();
    }

    @Override
    public void close() {
        if (source != null) {
            source.close();
        }
    }
}
