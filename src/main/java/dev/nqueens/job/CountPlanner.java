package dev.nqueens.job;

import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.CountUnits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Fixes how each counted size of a run is split, the first time the size is planned, in
 * {@code count_plan}: the engine's work units (and their fingerprint), the number of partitions
 * ({@code nqueens.count.partitions}, or by default a few per thread that can run them), and
 * whether each unit is counted twice. The split is kept until the size is published, whatever the
 * setting says later, so a resumed run adds its units to the same partitions. A plan made by a
 * build whose engine cut the size into other units is dropped, with the units counted under it.
 */
@Component
class CountPlanner {

    /** Partitions per thread by default: enough that the last ones finish close together. */
    static final int PARTITIONS_PER_THREAD = 4;
    /** The local default keeps at least this many work units in a partition, so tiny sizes are not split into noise. */
    static final int MIN_UNITS_PER_PARTITION = 8;
    /** The local default's upper bound: the partitions of a size on one machine. */
    static final int MAX_LOCAL_PARTITIONS = 64;
    /**
     * The default gives a partition at least this many of the size's solutions (its published count):
     * a fraction of a second of one core. A partition's records (its step execution, its units' rows;
     * on a worker its request, claim and lease) cost the same whatever it counts, so small sizes
     * dealt into many partitions took markedly longer (docs/performance.md). n = 16 and below get
     * one partition, n = 17 three, n = 18 26.
     */
    static final long MIN_SOLUTIONS_PER_PARTITION = 25_000_000L;

    private final CountUnits countUnits;
    private final KnownCounts known;
    private final PartitionExecution execution;
    private final NqueensProperties properties;

    CountPlanner(CountUnits countUnits, KnownCounts known, PartitionExecution execution, NqueensProperties properties) {
        this.countUnits = countUnits;
        this.known = known;
        this.execution = execution;
        this.properties = properties;
    }

    /**
     * Makes sure every counted size of {@code plan} has its split; returns a line for each plan that
     * had to be dropped.
     */
    List<String> prepare(List<SizePlan> plan) {
        List<String> notes = new ArrayList<>();
        for (SizePlan size : SizePlan.toCompute(plan, level -> level == StoredLevel.COUNT)) {
            int n = size.n();
            String fingerprint = WorkUnits.fingerprint(n);
            Optional<CountUnits.Plan> existing = countUnits.plan(n);
            if (existing.isPresent() && !existing.get().unitFingerprint().equals(fingerprint)) {
                notes.add(String.format(
                        "n=%d was planned with another engine's work units: its %d counted units are"
                                + " dropped and it is counted afresh",
                        n, countUnits.countedUnitRows(n)));
                countUnits.deletePlan(n);
                existing = Optional.empty();
            }
            if (existing.isEmpty()) {
                int units = WorkUnits.of(n).size();
                countUnits.savePlan(new CountUnits.Plan(
                        n,
                        units,
                        fingerprint,
                        partitions(n, units),
                        execution.replicas(n, known.of(n).isPresent())));
            }
        }
        return notes;
    }

    /** The partitions of size {@code n}, of {@code units} work units, under the current settings. */
    int partitions(int n, int units) {
        int configured = properties.count() == null ? 0 : properties.count().partitions();
        if (configured > 0) {
            return Math.min(configured, units);
        }
        int byThreads = PARTITIONS_PER_THREAD * Math.max(1, execution.capacity());
        int local = Math.max(1, Math.min(MAX_LOCAL_PARTITIONS, units / MIN_UNITS_PER_PARTITION));
        long byWork = known.of(n)
                .map(counts -> counts.totalSolutions() / MIN_SOLUTIONS_PER_PARTITION)
                .orElse(Long.MAX_VALUE);
        return (int) Math.max(1, Math.min(Math.min(units, byWork), Math.max(local, byThreads)));
    }
}
