package dev.nqueens.job;

import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.Checkpoint;
import dev.nqueens.store.GenerationLoader;
import dev.nqueens.store.Generations;
import dev.nqueens.store.RepresentativeRow;
import dev.nqueens.store.SolutionInsert;
import dev.nqueens.store.SolutionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Stores a chunk of numbered rows ({@link SolutionSource.Item}) in the chunk's transaction, with
 * the checkpoint they reach: each representative as its class's row, and at level ALL every
 * solution. Rows go into the generation the size is being computed into (the reader started it
 * when it opened), through the database's bulk path ({@link GenerationLoader}). Each chunk is
 * written only while this process still owns the partition (see {@link PartitionGuard}).
 */
// Not final: step-scoped beans are proxied by subclassing.
class SolutionWriter implements ItemWriter<SolutionSource.Item> {

    private final int n;
    private final StoredLevel level;
    private final Generations generations;
    private final SolutionStore store;
    private final GenerationLoader loader;
    private final PartitionGuard guard;
    private final StepExecution partition;
    private Checkpoint stored;

    SolutionWriter(
            int n,
            StoredLevel level,
            Generations generations,
            SolutionStore store,
            GenerationLoader loader,
            PartitionGuard guard,
            StepExecution partition) {
        this.n = n;
        this.level = level;
        this.generations = generations;
        this.store = store;
        this.loader = loader;
        this.guard = guard;
        this.partition = partition;
    }

    @Override
    public void write(Chunk<? extends SolutionSource.Item> chunk) {
        guard.checkStillOwned(partition);
        if (stored == null) {
            stored = store.checkpoint(n, generations.building(n, level));
        }
        List<RepresentativeRow> classes = new ArrayList<>();
        List<SolutionInsert> solutions = new ArrayList<>(level == StoredLevel.ALL ? chunk.size() : 0);
        long classCount = stored.classes();
        String last = null;
        for (SolutionSource.Item item : chunk) {
            if (item.representative()) {
                classes.add(new RepresentativeRow(
                        item.classOrdinal(),
                        item.placement(),
                        item.orbitSize(),
                        SolutionStore.symmetryOf(item.orbitSize())));
                classCount = item.classOrdinal();
            }
            if (level == StoredLevel.ALL) {
                solutions.add(new SolutionInsert(
                        item.ordinal(), item.placement(), item.classOrdinal(), item.transform(), item.orbitSize()));
            }
            last = item.placement();
        }
        Checkpoint reached = new Checkpoint(
                n,
                stored.generation(),
                stored.solutions() + solutions.size(),
                classCount,
                Optional.ofNullable(last).or(stored::lastPlacement));
        loader.load(n, stored.generation(), classes, solutions, reached);
        stored = reached;
    }
}
