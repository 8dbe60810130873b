package dev.nqueens.job;

import dev.nqueens.store.FundamentalRow;
import dev.nqueens.store.SolutionInsert;
import dev.nqueens.store.SolutionStore;
import java.util.ArrayList;
import java.util.List;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Stores a chunk of classified solutions in the chunk's transaction. Solutions arrive in
 * lexicographic order and a class's representative is its smallest member, so a representative
 * always comes before the rest of its class: numbering representatives as they arrive numbers
 * the classes in lexicographic order of their representatives.
 */
// Not final: step-scoped beans are proxied by subclassing.
class SolutionWriter implements ItemWriter<ClassifiedSolution> {

    private final int n;
    private final SolutionStore store;
    private long classesStored = -1;

    SolutionWriter(int n, SolutionStore store) {
        this.n = n;
        this.store = store;
    }

    @Override
    public void write(Chunk<? extends ClassifiedSolution> chunk) {
        if (classesStored < 0) {
            classesStored = store.fundamentalCount(n);
        }
        List<FundamentalRow> newClasses = new ArrayList<>();
        List<SolutionInsert> solutions = new ArrayList<>(chunk.size());
        long classes = classesStored;
        for (ClassifiedSolution solution : chunk) {
            String placement = solution.placement().toString();
            if (solution.isRepresentative()) {
                newClasses.add(new FundamentalRow(++classes, placement, solution.reduction().orbitSize(),
                        solution.reduction().symmetry().name()));
            }
            solutions.add(new SolutionInsert(solution.ordinal(), placement,
                    solution.reduction().representative().toString()));
        }
        store.insertChunk(n, newClasses, solutions);
        classesStored = classes;
    }
}
