package dev.nqueens.job;

import dev.nqueens.count.WorkUnit;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.Checkpoint;
import dev.nqueens.store.CountUnits;
import dev.nqueens.store.Generations;
import dev.nqueens.store.SolutionStore;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/**
 * How much of a size's work is done, from what its partitions have stored: the rows stored of a
 * size kept row by row (against its known count), the work units counted of a counted size,
 * weighed by their estimated cost (every replica counts).
 */
@Component
class WorkProgress {

    /** {@code done} of {@code total} (in any measure), and how to say it ({@code 1,234/2,048 work units}). */
    record Progress(long done, long total, String description) {

        double fraction() {
            return total == 0 ? 1 : (double) done / total;
        }
    }

    private final SolutionStore store;
    private final Generations generations;
    private final CountUnits countUnits;
    private final KnownCounts known;

    WorkProgress(SolutionStore store, Generations generations, CountUnits countUnits, KnownCounts known) {
        this.store = store;
        this.generations = generations;
        this.countUnits = countUnits;
        this.known = known;
    }

    /** How far each size {@code plan} computes has got, where its work has begun. */
    Map<Integer, Progress> of(List<SizePlan> plan) {
        Map<Integer, Progress> progress = new TreeMap<>();
        for (SizePlan size : plan) {
            if (size.computes()) {
                of(size).ifPresent(p -> progress.put(size.n(), p));
            }
        }
        return progress;
    }

    /** The progress of a size being computed; empty when it cannot be told (no plan, no known count). */
    Optional<Progress> of(SizePlan size) {
        int n = size.n();
        if (size.level() == StoredLevel.COUNT) {
            return countUnits.plan(n).map(this::counting);
        }
        long expected = known.of(n)
                .map(k -> size.level() == StoredLevel.ALL ? k.totalSolutions() : k.fundamentalSolutions())
                .orElse(0L);
        if (expected == 0) {
            return Optional.empty();
        }
        OptionalInt generation = generations.buildingIfAny(n);
        long stored = generation.isPresent() ? stored(store.checkpoint(n, generation.getAsInt()), size.level()) : 0;
        return Optional.of(new Progress(
                stored,
                expected,
                String.format(
                        "%,d/%,d %s",
                        stored, expected, size.level() == StoredLevel.ALL ? "solutions stored" : "classes stored")));
    }

    private static long stored(Checkpoint checkpoint, StoredLevel level) {
        return level == StoredLevel.ALL ? checkpoint.solutions() : checkpoint.classes();
    }

    private Progress counting(CountUnits.Plan plan) {
        List<WorkUnit> units = WorkUnits.of(plan.n());
        long totalCost = 0;
        long doneCost = 0;
        long doneUnits = 0;
        for (int replica = 1; replica <= plan.replicas(); replica++) {
            BitSet counted = countUnits.countedUnits(plan.n(), replica);
            for (WorkUnit unit : units) {
                totalCost += WorkUnits.cost(unit);
                if (counted.get(unit.index())) {
                    doneCost += WorkUnits.cost(unit);
                    doneUnits++;
                }
            }
        }
        return new Progress(
                doneCost,
                Math.max(1, totalCost),
                String.format(
                        "%,d/%,d work units%s",
                        doneUnits,
                        (long) units.size() * plan.replicas(),
                        plan.replicas() == 2 ? " (each counted twice)" : ""));
    }
}
