package dev.nqueens.job;

import dev.nqueens.store.RepresentativeRow;
import dev.nqueens.store.SolutionInsert;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.Generations;
import dev.nqueens.store.StoredLevel;
import java.util.ArrayList;
import java.util.List;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Stores a chunk of classified solutions in the chunk's transaction. Solutions arrive in
 * lexicographic order and a class's representative is its smallest member, so a representative
 * always comes before the rest of its class: numbering representatives as they arrive numbers
 * the classes in lexicographic order of their representatives. At level FUNDAMENTAL only the
 * representatives arrive, and only they are stored. Rows go into the generation the size is being
 * computed into (the reader started it when it opened). Each chunk is written only while this
 * process still owns the partition (see {@link PartitionGuard}).
 */
// Not final: step-scoped beans are proxied by subclassing.
class SolutionWriter implements ItemWriter<ClassifiedSolution> {

    private final int n;
    private final StoredLevel level;
    private final Generations generations;
    private final SolutionStore store;
    private final PartitionGuard guard;
    private final StepExecution partition;
    private int generation;
    private long classesStored = -1;

    SolutionWriter(int n, StoredLevel level, Generations generations, SolutionStore store, PartitionGuard guard,
            StepExecution partition) {
        this.n = n;
        this.level = level;
        this.generations = generations;
        this.store = store;
        this.guard = guard;
        this.partition = partition;
    }

    @Override
    public void write(Chunk<? extends ClassifiedSolution> chunk) {
        guard.checkStillOwned(partition);
        if (classesStored < 0) {
            generation = generations.building(n);
            classesStored = store.representativeCount(n, generation);
            if (level == StoredLevel.ALL) {
                store.ensureSquareSymmetry(n);
            }
        }
        List<RepresentativeRow> newClasses = new ArrayList<>();
        List<SolutionInsert> solutions = new ArrayList<>(level == StoredLevel.ALL ? chunk.size() : 0);
        long classes = classesStored;
        for (ClassifiedSolution solution : chunk) {
            String placement = solution.placement().toString();
            if (solution.isRepresentative()) {
                newClasses.add(new RepresentativeRow(++classes, placement, solution.reduction().orbitSize(),
                        solution.reduction().symmetry().name()));
            }
            if (level == StoredLevel.ALL) {
                solutions.add(new SolutionInsert(solution.ordinal(), placement,
                        solution.reduction().representative().toString(), solution.reduction().fromRepresentative()));
            }
        }
        store.insertChunk(n, generation, newClasses, solutions);
        classesStored = classes;
    }
}
