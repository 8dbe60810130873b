package dev.nqueens.solver;

/**
 * The seeds' iterative backtracker on bitboards: {@code s[i]} (the queen of row i) and the
 * column and diagonal arrays become one bitmask each per stack level. Solutions come out in
 * lexicographic order of their column sequence, and the enumeration can resume right after any
 * given solution.
 *
 * <p>Bit {@code c} of a mask stands for column {@code c} (0-based). At stack level {@code r} the
 * masks hold what the queens of rows {@code 0..r-1} attack in row {@code r}: {@code columns} the
 * occupied columns, {@code leftward} the squares on the "/" diagonals and {@code rightward} those
 * on the "\" diagonals. Going down one row a "/" diagonal moves one column to the left (shift
 * right) and a "\" diagonal one column to the right (shift left); bits shifted past column
 * {@code n-1} are cut off by {@code full}. {@code candidates[r]} are the free columns of row
 * {@code r} not yet tried.
 *
 * <p>Not thread-safe; the inner loop allocates nothing.
 */
public final class StackBacktracker {

    /** The largest board size the int bitboards can hold. */
    public static final int MAX_SIZE = 32;

    private final int n;
    private final int full;

    private final int[] queen;
    private final int[] columns;
    private final int[] leftward;
    private final int[] rightward;
    private final int[] candidates;
    private int depth;
    private boolean exhausted;

    /**
     * Enumerates every solution of an {@code n}×{@code n} board.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32}
     */
    public StackBacktracker(int n) {
        if (n < 1 || n > MAX_SIZE) {
            throw new IllegalArgumentException("board size " + n + " is outside 1.." + MAX_SIZE);
        }
        this.n = n;
        this.full = (int) ((1L << n) - 1);
        this.queen = new int[n];
        this.columns = new int[n + 1];
        this.leftward = new int[n + 1];
        this.rightward = new int[n + 1];
        this.candidates = new int[n + 1];
        this.candidates[0] = full;
    }

    /**
     * Positions the enumeration right after {@code solution}: the next call to {@link #next()}
     * yields the first solution lexicographically greater than it.
     *
     * @throws IllegalArgumentException if {@code solution} is not a solution of this size
     */
    public void resumeAfter(Placement solution) {
        if (solution.size() != n || !solution.isSolution()) {
            throw new IllegalArgumentException("'" + solution + "' is not a solution of size " + n);
        }
        for (int row = 0; row < n; row++) {
            int bit = 1 << solution.column(row);
            // Keep only the free columns right of the queen: -(bit << 1) has exactly the bits above bit.
            candidates[row] = free(row) & -(bit << 1);
            place(row, bit);
        }
        depth = n - 1;
        exhausted = false;
    }

    /**
     * Advances to the next solution in lexicographic order.
     *
     * @return false when there is none left
     */
    public boolean next() {
        if (exhausted) {
            return false;
        }
        int row = depth;
        while (row >= 0) {
            int open = candidates[row];
            if (open == 0) {
                row--;
                continue;
            }
            // The lowest set bit is the leftmost free column: taking it first gives lexicographic order.
            int bit = open & -open;
            candidates[row] = open ^ bit;
            if (row == n - 1) {
                queen[row] = bit;
                depth = row;
                return true;
            }
            place(row, bit);
            candidates[row + 1] = free(row + 1);
            row++;
        }
        exhausted = true;
        return false;
    }

    /** The 0-based column of {@code row}'s queen in the current solution. */
    public int column(int row) {
        return Integer.numberOfTrailingZeros(queen[row]);
    }

    /** The current solution (valid after {@link #next()} returned true). */
    public Placement current() {
        int[] solution = new int[n];
        for (int row = 0; row < n; row++) {
            solution[row] = column(row);
        }
        return new Placement(solution);
    }

    public int size() {
        return n;
    }

    private int free(int row) {
        return full & ~(columns[row] | leftward[row] | rightward[row]);
    }

    /** Puts a queen on {@code row} and derives what the rows above attack in the row below. */
    private void place(int row, int bit) {
        queen[row] = bit;
        columns[row + 1] = columns[row] | bit;
        leftward[row + 1] = (leftward[row] | bit) >>> 1;
        rightward[row + 1] = (rightward[row] | bit) << 1;
    }
}
