package dev.nqueens.count;

/**
 * The placements of one quadrant cell found by a search each time they are asked for, instead of
 * read from the {@link QuadrantTable}: the layout for sizes whose table does not fit in the heap.
 * A cell's queens stand one on each of its rows, on its columns, so the search tries for each row
 * in turn the cell's columns not yet used and not on a diagonal already taken. Slower than the
 * table (a cell is searched each time a column set needs it), the same placements.
 *
 * <p>Not thread-safe: one per {@link HalfBoard}.
 */
final class QuadrantSearch implements QuadrantSource {

    private final int side;
    private long[] found = new long[256];
    private int count;
    private final int[] rowOf;

    QuadrantSearch(int side) {
        if (side < 1 || side > 16) {
            throw new IllegalArgumentException("quadrants of side " + side);
        }
        this.side = side;
        this.rowOf = new int[side];
    }

    @Override
    public void select(int rows, int columns) {
        count = 0;
        int depth = 0;
        for (int r = rows; r != 0; r &= r - 1) {
            rowOf[depth++] = Integer.numberOfTrailingZeros(r);
        }
        place(0, depth, columns, 0L);
    }

    /** Places a queen on row {@code rowOf[depth]} in one of the {@code columns} left, then the next row. */
    private void place(int depth, int rowsInCell, int columns, long diagonals) {
        if (depth == rowsInCell) {
            if (count == found.length) {
                found = java.util.Arrays.copyOf(found, 2 * count);
            }
            found[count++] = diagonals;
            return;
        }
        int row = rowOf[depth];
        for (int free = columns; free != 0; free &= free - 1) {
            int column = Integer.numberOfTrailingZeros(free);
            long slash = 1L << 2 * (row + column);
            long back = 1L << 2 * (row - column + side - 1) + 1;
            if ((diagonals & (slash | back)) == 0) {
                place(depth + 1, rowsInCell, columns & ~(1 << column), diagonals | slash | back);
            }
        }
    }

    @Override
    public long[] array() {
        return found;
    }

    @Override
    public int from() {
        return 0;
    }

    @Override
    public int to() {
        return count;
    }
}
