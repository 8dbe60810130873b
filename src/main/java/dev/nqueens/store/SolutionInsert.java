package dev.nqueens.store;

/**
 * A row for a generation's solution table: a solution's rank, placement, class, the symmetry that
 * maps its class's representative onto it, and the class's orbit size.
 */
public record SolutionInsert(long ordinal, String placement, long classOrdinal, int transform, int orbitSize) {}
