package dev.nqueens.job;

import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a run does with one board size, decided once when the run starts and kept with it, so a
 * restarted run finishes the same work.
 */
public record SizePlan(int n, StoredLevel level, Action action) {

    /** What has to happen to a size. */
    public enum Action {
        /** Already published at this level: nothing to compute. */
        SKIP,
        /** Not published yet: compute straight into the published tables (resuming a partial one). */
        COMPUTE,
        /** Published, but recomputed (--force, or a higher level): compute aside, then swap in. */
        REPLACE,
        /** Published at a higher level, and lowered as the run was asked to: drop the rows the lower level does not keep. */
        DOWNGRADE,
        /**
         * Published at a higher level than the run's settings name, and not asked to be lowered: kept
         * as it is ({@link SizePlan#level} is the level it is stored at). Nothing to compute.
         */
        KEEP
    }

    /** What each size {@code request} asks for needs, given what {@code store} has published. */
    public static List<SizePlan> of(RunRequest request, SolutionStore store) {
        List<SizePlan> plan = new ArrayList<>();
        for (int n : request.sizes().sizes()) {
            plan.add(decide(
                    n,
                    request.limits().levelOf(n),
                    store.summary(n).map(BoardSummary::stored),
                    request.force(),
                    request.lower().contains(n)));
        }
        return plan;
    }

    /**
     * Decides the action for a size wanted at {@code wanted} and published at {@code published}. A
     * size published at a higher level is kept at it ({@link Action#KEEP}; with {@code force}
     * recomputed at it) unless {@code lower} asks for it to be lowered: rows a user stored are
     * dropped only on request.
     */
    public static SizePlan decide(
            int n, StoredLevel wanted, Optional<StoredLevel> published, boolean force, boolean lower) {
        if (published.isEmpty()) {
            return new SizePlan(n, wanted, Action.COMPUTE);
        }
        StoredLevel current = published.get();
        // Levels are declared from most to least stored: a smaller ordinal holds more rows.
        boolean above = current.ordinal() < wanted.ordinal();
        StoredLevel level = above && !lower ? current : wanted;
        if (force) {
            return new SizePlan(n, level, Action.REPLACE);
        }
        if (current == wanted) {
            return new SizePlan(n, wanted, Action.SKIP);
        }
        if (above) {
            return new SizePlan(n, level, lower ? Action.DOWNGRADE : Action.KEEP);
        }
        return new SizePlan(n, wanted, Action.REPLACE);
    }

    /** True when the size has to be computed (into the published or the staging tables). */
    public boolean computes() {
        return action == Action.COMPUTE || action == Action.REPLACE;
    }

    /** True when the run leaves the size as it is published (at its level, or kept above it). */
    public boolean untouched() {
        return action == Action.SKIP || action == Action.KEEP;
    }

    /** The sizes of {@code plan} to compute whose level passes {@code levels}, by size. */
    public static List<SizePlan> toCompute(List<SizePlan> plan, java.util.function.Predicate<StoredLevel> levels) {
        return plan.stream()
                .filter(SizePlan::computes)
                .filter(size -> levels.test(size.level()))
                .sorted(java.util.Comparator.comparingInt(SizePlan::n))
                .toList();
    }

    /**
     * What the names of this size's partitions start with: {@code solveSize:n08} (its one
     * partition), {@code countPart:n18-} (its counting partitions).
     */
    String partitionNamePrefix() {
        return level == StoredLevel.COUNT
                ? NightlyJobConfiguration.COUNT_PART_STEP + ":" + String.format("n%02d-", n)
                : NightlyJobConfiguration.SOLVE_SIZE_STEP + ":" + SolvePartitioner.partitionName(n);
    }

    /** {@code 8:ALL:COMPUTE,17:COUNT:SKIP}. */
    public static String format(List<SizePlan> plans) {
        return plans.stream().map(p -> p.n + ":" + p.level + ":" + p.action).collect(Collectors.joining(","));
    }

    public static List<SizePlan> parse(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        return Arrays.stream(text.split(","))
                .map(item -> item.split(":"))
                .map(f -> new SizePlan(Integer.parseInt(f[0]), StoredLevel.valueOf(f[1]), Action.valueOf(f[2])))
                .toList();
    }
}
