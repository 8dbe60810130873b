package dev.nqueens.count;

import dev.nqueens.board.Symmetry;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The solutions a quarter turn leaves unchanged, filed by their pair {@code (C, L)} (see
 * {@link PairSymmetry}): the few that {@link TaskCounter} cannot tell apart by their patterns.
 * They exist only for n = 4k and n = 4k + 1 (then with a queen at the centre) and are rare (480
 * of n = 20's 39 billion solutions), so they are found by a search of their own: a quarter turn
 * maps each queen to three more, so the search places orbits of four queens on the lowest free
 * row, and only about a quarter of the rows are chosen freely.
 */
final class QuarterTurnSolutions {

    private static final Map<Integer, Map<Long, Long>> CACHE = new ConcurrentHashMap<>();

    private final int n;
    private final int m;
    private final int[] column;
    private final Map<Long, Long> byPair = new HashMap<>();

    private QuarterTurnSolutions(int n) {
        this.n = n;
        this.m = n - 1;
        this.column = new int[n];
        java.util.Arrays.fill(column, -1);
        if (n % 4 == 1) {
            column[n / 2] = n / 2;
        }
        if (n % 4 <= 1) {
            search(0, 0, 0, 0);
        }
    }

    /**
     * The quarter-turn solutions of size {@code n} per pair, {@code C << 32 | L}, computed once per
     * size; empty where there are none.
     */
    static Map<Long, Long> byPair(int n) {
        return CACHE.computeIfAbsent(n, size -> Map.copyOf(new QuarterTurnSolutions(size).byPair));
    }

    /** Masks of used columns, "/" and "\" diagonals (bit r + c and r - c + n - 1). */
    private void search(int row, long columns, long slashes, long backs) {
        while (row < n && column[row] >= 0) {
            row++;
        }
        if (row == n) {
            byPair.merge(pairOf(), 1L, Long::sum);
            return;
        }
        long used = columns;
        long usedSlash = slashes;
        long usedBack = backs;
        if (n % 4 == 1) {
            int centre = n / 2;
            used |= 1L << centre;
            usedSlash |= 1L << (2 * centre);
            usedBack |= 1L << m;
        }
        for (int c = 0; c < n; c++) {
            // The orbit of (row, c) under the turns: its images by the identity and the three turns.
            int[] rows = new int[4];
            int[] cols = new int[4];
            for (int turn = Symmetry.IDENTITY; turn <= Symmetry.THREE_QUARTER_TURN; turn++) {
                int image = Symmetry.square(n, turn, row, c);
                rows[turn] = Symmetry.row(image);
                cols[turn] = Symmetry.column(image);
            }
            if (!fits(rows, cols, used, usedSlash, usedBack)) {
                continue;
            }
            long nextColumns = columns;
            long nextSlashes = slashes;
            long nextBacks = backs;
            for (int q = 0; q < 4; q++) {
                column[rows[q]] = cols[q];
                nextColumns |= 1L << cols[q];
                nextSlashes |= 1L << (rows[q] + cols[q]);
                nextBacks |= 1L << (rows[q] - cols[q] + m);
            }
            search(row + 1, nextColumns, nextSlashes, nextBacks);
            for (int q = 0; q < 4; q++) {
                column[rows[q]] = -1;
            }
        }
    }

    /** Whether the four queens of an orbit are distinct, on free lines and attack each other nowhere. */
    private boolean fits(int[] rows, int[] cols, long columns, long slashes, long backs) {
        long placedColumns = 0;
        long placedSlashes = 0;
        long placedBacks = 0;
        for (int q = 0; q < 4; q++) {
            if (column[rows[q]] >= 0) {
                return false;
            }
            long c = 1L << cols[q];
            long s = 1L << (rows[q] + cols[q]);
            long b = 1L << (rows[q] - cols[q] + m);
            if (((columns | placedColumns) & c) != 0
                    || ((slashes | placedSlashes) & s) != 0
                    || ((backs | placedBacks) & b) != 0) {
                return false;
            }
            for (int p = 0; p < q; p++) {
                if (rows[p] == rows[q]) {
                    return false;
                }
            }
            placedColumns |= c;
            placedSlashes |= s;
            placedBacks |= b;
        }
        return true;
    }

    /** The pair of the solution in {@link #column}, lines renumbered without the middle ones. */
    private long pairOf() {
        int h = n / 2;
        int c = 0;
        int l = 0;
        for (int row = 0; row < n; row++) {
            int col = column[row];
            if (n % 2 == 1 && (row == h || col == h)) {
                continue;
            }
            int r = n % 2 == 1 && row > h ? row - 1 : row;
            int k = n % 2 == 1 && col > h ? col - 1 : col;
            if (r < h) {
                c |= 1 << k;
            }
            if (k < h) {
                l |= 1 << r;
            }
        }
        return (long) c << 32 | l & 0xffffffffL;
    }
}
