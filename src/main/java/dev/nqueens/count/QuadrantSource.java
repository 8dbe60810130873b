package dev.nqueens.count;

/**
 * Where a {@link HalfBoard} takes the placements of one quadrant cell (a set of rows and a set of
 * columns of the same size) from: the shared {@link QuadrantTable}, or a small search per cell
 * ({@link QuadrantSearch}) when the table would not fit in the heap. Both give the same placements
 * in the same format (see {@link QuadrantTable}).
 */
interface QuadrantSource {

    /** Makes the placements of the cell available as {@code array()[from() .. to() - 1]}, until the next call. */
    void select(int rows, int columns);

    long[] array();

    int from();

    int to();
}
