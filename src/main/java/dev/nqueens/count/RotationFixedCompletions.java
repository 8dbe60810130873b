package dev.nqueens.count;

/**
 * Counts the completions of a start constellation that a rotation of the board leaves unchanged:
 * the few solutions whose symmetry class is smaller than 8. The engine counts all completions of
 * a symmetric constellation on the fast path and only these on the side, instead of inspecting
 * every solution (n = 18: the 64 symmetric constellations took 3.6 s that way, 2.0 s on the fast
 * path, and these counts take milliseconds).
 *
 * <p>A completion fixed by a rotation holds, with each queen, the queen's images under the
 * rotation, so the search places whole orbits: the lowest free row gets a queen, and the same step
 * places its images (2 queens in all for the half turn, 4 for the quarter turn, fewer at the
 * centre). Only about half or a quarter of the free rows are chosen freely, so the tree is tiny
 * next to the full search. Rows, columns and both diagonals are bit masks; "/" diagonals are
 * numbered {@code row + column}, "\" diagonals {@code row - column + n - 1}.
 *
 * <p>Not thread-safe; nothing is allocated per count.
 */
final class RotationFixedCompletions {

    /** The half turn, (r, c) to (n-1-r, n-1-c). */
    static final int HALF_TURN = 2;
    /** The quarter turn, (r, c) to (c, n-1-r). */
    static final int QUARTER_TURN = 1;

    private final int n;
    private int turn;
    private int rows;
    private int columns;
    private long slashes;
    private long backslashes;

    RotationFixedCompletions(int n) {
        this.n = n;
    }

    /**
     * The completions of {@code c} that {@code turn} ({@link #HALF_TURN} or {@link #QUARTER_TURN})
     * leaves unchanged.
     *
     * @throws IllegalArgumentException if {@code turn} is neither, or {@code c} is not itself
     *     unchanged by it
     */
    long count(StartConstellation c, int turn) {
        if (turn != HALF_TURN && turn != QUARTER_TURN) {
            throw new IllegalArgumentException("not a rotation: " + turn);
        }
        if (!c.equals(c.transformed(turn)) || c.n() != n) {
            throw new IllegalArgumentException(c + " is not unchanged by rotation " + turn);
        }
        this.turn = turn;
        rows = 0;
        columns = 0;
        slashes = 0;
        backslashes = 0;
        int m = n - 1;
        // The constellation's queens: a corner queen is met twice and placed once.
        placeIfNew(0, c.top());
        placeIfNew(m, c.bottom());
        placeIfNew(c.left(), 0);
        placeIfNew(c.right(), m);
        return completions();
    }

    private void placeIfNew(int row, int column) {
        if ((rows & 1 << row) == 0) {
            place(row, column);
        }
    }

    private long completions() {
        int freeRows = ~rows & (int) ((1L << n) - 1);
        if (freeRows == 0) {
            return 1;
        }
        int row = Integer.numberOfTrailingZeros(freeRows);
        long count = 0;
        for (int open = ~columns & (int) ((1L << n) - 1); open != 0; open &= open - 1) {
            int column = Integer.numberOfTrailingZeros(open);
            int savedRows = rows;
            int savedColumns = columns;
            long savedSlashes = slashes;
            long savedBackslashes = backslashes;
            if (placeOrbit(row, column)) {
                count += completions();
            }
            rows = savedRows;
            columns = savedColumns;
            slashes = savedSlashes;
            backslashes = savedBackslashes;
        }
        return count;
    }

    /** Places the queen and its images under the rotation; false if one of them is attacked. */
    private boolean placeOrbit(int row, int column) {
        int r = row;
        int c = column;
        do {
            if (!free(r, c)) {
                return false;
            }
            place(r, c);
            int image = StartConstellation.transform(n, turn, r, c);
            r = image >> 8;
            c = image & 0xff;
        } while (r != row || c != column);
        return true;
    }

    private boolean free(int row, int column) {
        return (rows & 1 << row) == 0 && (columns & 1 << column) == 0
                && (slashes & 1L << (row + column)) == 0 && (backslashes & 1L << (row - column + n - 1)) == 0;
    }

    private void place(int row, int column) {
        rows |= 1 << row;
        columns |= 1 << column;
        slashes |= 1L << (row + column);
        backslashes |= 1L << (row - column + n - 1);
    }
}
