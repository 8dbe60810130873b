package dev.nqueens.verify;

import dev.nqueens.store.SolutionCells;
import dev.nqueens.verify.VerificationReport.Check;

/**
 * Checks {@code fundamental_cell} of one size (the queens of its representatives, under the
 * {@code solution_cell} view) against the stored representatives without holding either: the
 * representatives, as they stream past, give the number of cells and two sums over them, and the
 * database gives the same three aggregates of the stored cells. Each cell (row, column) gets a
 * weight {@link #weight}; {@code sum(weight)} and {@code sum(ordinal * weight)} move when
 * a cell is missing, extra or changed, when a representative swaps two of its rows and when
 * two classes swap cells or whole placements (a plain sum of columns would not: every solution has
 * each column once). The sums are compared modulo 2^64 (Java's long arithmetic, the database's
 * exact sum narrowed).
 */
final class CellCheck {

    /** The SQL of {@link #weight}, over the columns of {@code solution_cell}. */
    static final String WEIGHT_SQL = "CAST(queen_row * 64 + queen_column AS BIGINT)"
            + " * CAST(queen_row * 64 + queen_column AS BIGINT) * CAST(queen_row * 64 + queen_column AS BIGINT)";

    private final int n;
    private long cells;
    private long byOrdinal;
    private long byCell;
    private long unreadable;

    CellCheck(int n) {
        this.n = n;
    }

    /** One representative; a text that is not n numbers counts as unreadable (the placements check names it). */
    void acceptClass(long classOrdinal, String placement) {
        int[] columns;
        try {
            columns = SolutionCells.columnsOf(String.valueOf(placement), n);
        } catch (IllegalArgumentException e) {
            unreadable++;
            return;
        }
        for (int row = 1; row <= n; row++) {
            long weight = weight(row, columns[row - 1]);
            byOrdinal += classOrdinal * weight;
            byCell += weight;
        }
        cells += n;
    }

    /**
     * The cube of {@code 64 * row + column}; the same as {@link #WEIGHT_SQL}. Not linear, so a
     * solution's sum of weights depends on which column each row holds (a linear weight would sum
     * to the same for every solution, each having every row and column once).
     */
    static long weight(long row, long column) {
        long cell = row * 64 + column;
        return cell * cell * cell;
    }

    /** The check, given the aggregates of the size's rows in {@code fundamental_cell}. */
    Check compare(long storedCells, long storedByOrdinal, long storedByCell) {
        String name = "n=" + n + " cells";
        if (unreadable > 0) {
            return Check.failed(name, unreadable + " placement(s) cannot be split into cells");
        }
        if (storedCells != cells) {
            return Check.failed(name, storedCells + " rows in fundamental_cell, the representatives have " + cells
                    + " queens");
        }
        if (storedByOrdinal != byOrdinal || storedByCell != byCell) {
            return Check.failed(name, "fundamental_cell does not hold the queens of the representatives");
        }
        return Check.ok(name, cells + " cells match the representatives");
    }
}
