package dev.nqueens.store;

/** A row for {@code stored_solution}: a solution's rank, placement and class representative. */
public record SolutionInsert(long ordinal, String placement, String representative, int transform) {
}
