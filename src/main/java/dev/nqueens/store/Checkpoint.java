package dev.nqueens.store;

import java.util.Optional;

/**
 * How far the computation of a size into its building generation has got, as its last committed
 * chunk recorded it in {@code building_generation}, in the same transaction as the chunk's rows:
 * the solutions and classes stored, and the placement of the last one (a solution at level ALL, a
 * representative at level FUNDAMENTAL), from which the enumeration resumes.
 */
public record Checkpoint(int n, int generation, long solutions, long classes, Optional<String> lastPlacement) {

    /** A generation nothing has been stored into yet. */
    public static Checkpoint empty(int n, int generation) {
        return new Checkpoint(n, generation, 0, 0, Optional.empty());
    }
}
