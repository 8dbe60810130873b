package dev.nqueens.solver;

import dev.nqueens.board.Symmetry;
import java.util.Arrays;

/**
 * Enumerates the class representatives of one board size in lexicographic order of their column
 * sequences: the solutions that are the lexicographically smallest of their 8 images under the
 * symmetries of the square, each exactly once. It can resume right after any given solution, so
 * an enumeration can be split or continued later.
 *
 * <p>The search is a stack backtracker over bitboards that only enters subtrees which can hold a
 * representative. Each symmetry maps some border queen to the top row, at a column equal to that
 * queen's distance to one of the two corners of its border line; so the top queen of a
 * representative, at column {@code c}, is no farther from its nearest corner than any other border
 * queen from theirs. Hence {@code c <= (n-1)/2}, the bottom queen stands in columns
 * {@code c..n-1-c}, and the queens of columns 0 and n-1 stand in rows {@code c..n-1-c}. What this
 * does not decide is settled at each solution by comparing it with its images.
 *
 * <p>Not thread-safe; nothing is allocated per node, only per representative returned.
 */
public final class RepresentativeEnumerator {

    private final int n;
    private final int full;
    private final int[] queen;
    private final int[] candidates;
    private final int[] columns;
    private final int[] leftward;
    private final int[] rightward;
    private final int[] image;
    private int depth;
    private boolean started;
    private int orbitSize;

    /**
     * Enumerates the representatives of size {@code n} that come after {@code after} in
     * lexicographic order, or from the first one if {@code after} is null.
     *
     * @param after a solution of size {@code n} (0-based columns), usually the last
     *     representative returned by an earlier enumeration
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32} or {@code after} is
     *     not a solution of size {@code n}
     */
    public RepresentativeEnumerator(int n, int[] after) {
        if (n < 1 || n > StackBacktracker.MAX_SIZE) {
            throw new IllegalArgumentException("board size " + n + " is outside 1.." + StackBacktracker.MAX_SIZE);
        }
        this.n = n;
        this.full = (int) ((1L << n) - 1);
        this.queen = new int[n];
        this.candidates = new int[n];
        this.columns = new int[n];
        this.leftward = new int[n];
        this.rightward = new int[n];
        this.image = new int[n];
        if (after == null) {
            candidates[0] = allowed(0, 0);
            depth = 0;
        } else {
            resumeAfter(after);
        }
    }

    /**
     * The next representative (0-based columns, a new array), or null when there are no more.
     */
    public int[] next() {
        if (!advance()) {
            return null;
        }
        int[] placement = new int[n];
        for (int r = 0; r < n; r++) {
            placement[r] = Integer.numberOfTrailingZeros(queen[r]);
        }
        return placement;
    }

    /**
     * The number of distinct solutions in the class of the representative last returned by
     * {@link #next()}: 8, 4 (unchanged by the half turn), 2 (unchanged by the quarter turn) or 1
     * (n = 1).
     *
     * @throws IllegalStateException if {@link #next()} has not returned a representative yet
     */
    public int orbitSize() {
        if (orbitSize == 0) {
            throw new IllegalStateException("no representative returned yet");
        }
        return orbitSize;
    }

    /** Runs the search to the next representative; false when the search is exhausted. */
    private boolean advance() {
        while (depth >= 0) {
            int free = candidates[depth];
            if (free == 0) {
                depth--;
                continue;
            }
            // free & -free isolates the lowest set bit: columns are tried in increasing order,
            // which is what makes the solutions come out in lexicographic order.
            int bit = free & -free;
            candidates[depth] = free ^ bit;
            queen[depth] = bit;
            if (depth == n - 1) {
                if (isRepresentative()) {
                    return true;
                }
                continue;
            }
            descend(bit);
        }
        return false;
    }

    /**
     * Goes one row down after placing {@code bit} at the current depth. A "/" diagonal moves one
     * column left per row down (shift right), a "\" diagonal one column right (shift left); bits
     * pushed past column n-1 are cut off by {@code full}, those below column 0 fall off the int.
     */
    private void descend(int bit) {
        int r = depth;
        columns[r + 1] = columns[r] | bit;
        leftward[r + 1] = (leftward[r] | bit) >>> 1;
        rightward[r + 1] = (rightward[r] | bit) << 1;
        int topColumn = Integer.numberOfTrailingZeros(queen[0]);
        candidates[r + 1] = allowed(r + 1, topColumn) & ~(columns[r + 1] | leftward[r + 1] | rightward[r + 1]) & full;
        depth = r + 1;
    }

    /**
     * The columns row {@code row} may use when the top queen stands in column {@code top}: no
     * border queen of a representative is nearer to its corner than the top one.
     */
    private int allowed(int row, int top) {
        if (row == 0) {
            // Columns 0..(n-1)/2: the top queen is no farther from the left corner than the right.
            return (int) ((1L << ((n - 1) / 2 + 1)) - 1);
        }
        if (row == n - 1) {
            // Columns top..n-1-top: the bits from top up, minus those above n-1-top.
            return full & ~((1 << top) - 1) & (int) ((1L << (n - top)) - 1);
        }
        if (row < top || row > n - 1 - top) {
            return full & ~(1 | 1 << (n - 1));
        }
        return full;
    }

    /**
     * Whether the solution on the stack is the smallest of its images, recording its orbit size:
     * 8 divided by the number of symmetries that leave it unchanged.
     */
    private boolean isRepresentative() {
        int fixed = 1;
        for (int g = 1; g < Symmetry.COUNT; g++) {
            for (int r = 0; r < n; r++) {
                int packed = Symmetry.square(n, g, r, Integer.numberOfTrailingZeros(queen[r]));
                image[packed >> 8] = packed & 0xff;
            }
            int order = compareWithImage();
            if (order > 0) {
                return false;
            }
            if (order == 0) {
                fixed++;
            }
        }
        orbitSize = Symmetry.COUNT / fixed;
        return true;
    }

    /** Compares the solution on the stack with {@code image}, lexicographically. */
    private int compareWithImage() {
        for (int r = 0; r < n; r++) {
            int c = Integer.numberOfTrailingZeros(queen[r]);
            if (c != image[r]) {
                return c < image[r] ? -1 : 1;
            }
        }
        return 0;
    }

    /**
     * Rebuilds the stack as if {@code after} had just been visited: each row keeps only the
     * candidates to the right of its queen in {@code after}.
     */
    private void resumeAfter(int[] after) {
        if (after.length != n) {
            throw new IllegalArgumentException("placement of " + after.length + " rows for size " + n);
        }
        int top = after[0];
        for (int r = 0; r < n; r++) {
            int c = after[r];
            if (c < 0 || c >= n) {
                throw new IllegalArgumentException("column " + c + " of row " + r + " is off the board");
            }
            int bit = 1 << c;
            int attacked = r == 0 ? 0 : columns[r] | leftward[r] | rightward[r];
            if ((attacked & bit) != 0) {
                throw new IllegalArgumentException("not a solution: " + Arrays.toString(after));
            }
            // ~((bit << 1) - 1) keeps the columns above c; for c = 31 it is 0, as it should be.
            candidates[r] = allowed(r, top) & ~attacked & full & ~((bit << 1) - 1);
            queen[r] = bit;
            if (r + 1 < n) {
                columns[r + 1] = columns[r] | bit;
                leftward[r + 1] = (leftward[r] | bit) >>> 1;
                rightward[r + 1] = (rightward[r] | bit) << 1;
            }
        }
        depth = n - 1;
    }
}
