package dev.nqueens.store;

/** One row of {@code fundamental_solution}: a class and its representative. */
public record FundamentalRow(long classOrdinal, String placement, int orbitSize, String symmetry) {
}
