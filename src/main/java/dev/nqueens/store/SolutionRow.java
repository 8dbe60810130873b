package dev.nqueens.store;

/** One row of the {@code solution} view. */
public record SolutionRow(long ordinal, String placement, long classOrdinal, int orbitSize, String symmetry) {}
