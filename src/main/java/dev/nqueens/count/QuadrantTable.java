package dev.nqueens.count;

import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;

/**
 * Every placement of non-attacking queens on an {@code h×h} square, with any number of queens from
 * none to {@code h}: everything one quadrant of the board can hold. A placement is filed under its
 * occupied rows and columns (a "cell", {@code columns << h | rows}), and stored as the diagonals
 * its queens occupy in the square's own coordinates, the two directions interleaved: bit
 * {@code 2(r + c)} for the "/" diagonal of a queen on (r, c), bit {@code 2(r - c + h - 1) + 1} for
 * its "\" diagonal ({@code 4h - 2} bits). The four quadrants of a board are all such squares,
 * shifted; {@link HalfBoard} shifts the diagonals of each direction to the half board's border.
 *
 * <p>Built once per {@code h} and shared by all engines and threads that use it (it is never
 * written after construction): {@link #bytes} of heap, the largest share of what a size needs
 * from n = 20 on ({@link CountingEngine#heapBytesNeeded}; docs/engine.md lists it per size).
 */
final class QuadrantTable {

    /** The largest square whose placements are indexed (h = 13 alone would need 50 GB). */
    static final int MAX_SIDE = 12;

    private static final Map<Integer, WeakReference<QuadrantTable>> BUILT = new HashMap<>();

    final int side;
    /** The placements of cell {@code k} are {@code diagonals[start[k] .. start[k + 1] - 1]}. */
    final int[] start;

    final long[] diagonals;

    private QuadrantTable(int side) {
        this.side = side;
        this.start = new int[(1 << 2 * side) + 1];
        // Two passes over the same search: count the placements of each cell, then file them.
        place(0, 0, 0, 0, 0, 0, null);
        int total = 0;
        for (int cell = 0; cell < start.length - 1; cell++) {
            int count = start[cell];
            start[cell] = total;
            total += count;
        }
        start[start.length - 1] = total;
        this.diagonals = new long[total];
        int[] cursor = start.clone();
        place(0, 0, 0, 0, 0, 0, cursor);
    }

    /**
     * The table for squares of side {@code h}, built on first use. It stays shared while an engine
     * holds it, and is rebuilt after every engine of that size is gone (the larger tables take
     * hundreds of megabytes, not to be kept for a size nobody counts any more).
     *
     * @throws IllegalArgumentException if {@code h} is outside {@code 1..MAX_SIDE}
     */
    static QuadrantTable of(int h) {
        if (h < 1 || h > MAX_SIDE) {
            throw new IllegalArgumentException("quadrants of side " + h + " are not tabulated");
        }
        synchronized (BUILT) {
            WeakReference<QuadrantTable> ref = BUILT.get(h);
            QuadrantTable table = ref == null ? null : ref.get();
            if (table == null) {
                table = new QuadrantTable(h);
                BUILT.put(h, new WeakReference<>(table));
            }
            return table;
        }
    }

    /**
     * The placements of a square of side {@code h}: the sum over k of the ways to place k
     * non-attacking queens. Known without building: 118,969 for h = 8, 7,535,369 for h = 10,
     * 66,807,234 for h = 11, 633,443,407 for h = 12 (this engine's own count, checked by a test).
     */
    static long placements(int h) {
        return switch (h) {
            case 1 -> 2;
            case 2 -> 5;
            case 3 -> 18;
            case 4 -> 87;
            case 5 -> 462;
            case 6 -> 2_635;
            case 7 -> 16_870;
            case 8 -> 118_969;
            case 9 -> 915_442;
            case 10 -> 7_535_369;
            case 11 -> 66_807_234;
            case 12 -> 633_443_407;
            default -> throw new IllegalArgumentException("quadrants of side " + h + " are not tabulated");
        };
    }

    /** Heap bytes of the table of side {@code h}: 8 per placement, 4 per cell. */
    static long bytes(int h) {
        return 8 * placements(h) + 4L * ((1L << 2 * h) + 1);
    }

    /**
     * The cell of a set of rows and a set of columns of the square: by columns first, so that the
     * cells of one column set, which one task reads for all its row sets, lie side by side.
     */
    int cell(int rows, int columns) {
        return columns << side | rows;
    }

    /** A reader of this table for one {@link HalfBoard} (the table itself is shared and never written). */
    QuadrantSource reader() {
        return new QuadrantSource() {
            private int cell;

            @Override
            public void select(int rows, int columns) {
                cell = cell(rows, columns);
            }

            @Override
            public long[] array() {
                return diagonals;
            }

            @Override
            public int from() {
                return start[cell];
            }

            @Override
            public int to() {
                return start[cell + 1];
            }
        };
    }

    /**
     * Places queens row by row, each row either empty or holding one queen on a free square;
     * with {@code cursor} null only counts each cell's placements into {@link #start}.
     */
    private void place(int row, int rows, int columns, int leftward, int rightward, long diagonal, int[] cursor) {
        if (row == side) {
            int cell = cell(rows, columns);
            if (cursor == null) {
                start[cell]++;
            } else {
                diagonals[cursor[cell]++] = diagonal;
            }
            return;
        }
        int all = (1 << side) - 1;
        // "/" attacks move one column left per row down, "\" attacks one column right.
        place(row + 1, rows, columns, leftward >>> 1, rightward << 1 & all, diagonal, cursor);
        for (int free = ~(columns | leftward | rightward) & all; free != 0; free &= free - 1) {
            int bit = free & -free;
            int column = Integer.numberOfTrailingZeros(bit);
            long onDiagonals = 1L << 2 * (row + column) | 1L << 2 * (row - column + side - 1) + 1;
            place(
                    row + 1,
                    rows | 1 << row,
                    columns | bit,
                    (leftward | bit) >>> 1,
                    (rightward | bit) << 1 & all,
                    diagonal | onDiagonals,
                    cursor);
        }
    }
}
