package dev.nqueens.store;

/** One row of {@code fundamental_solution}: a class and its representative. */
public record RepresentativeRow(long classOrdinal, String placement, int orbitSize, String symmetry) {}
