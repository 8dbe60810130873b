package dev.nqueens.count;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One family of the column sets a size is counted by. An even board {@code n = 2h} is split into
 * four quadrants of side {@code h} and has one segment. An odd board {@code n = 2h + 1} is split
 * by its middle row and middle column, whose queens stand at {@code (h, a)} and {@code (b, h)}
 * (one queen at the centre when {@code a = b = h}): the centre is one segment, and each canonical
 * pair {@code (a, b)} away from the centre another. Every solution has one such pair, so the
 * segments split the solutions.
 *
 * <p>A task is one column set {@code C} of the queens of the top half, on the {@code 2h} columns
 * outside the middle column (renumbered, see {@link PairSymmetry}). The even board and the centre
 * keep the 8 symmetries of the square: their tasks are the column sets smallest among their images
 * ({@link PairSymmetry#orbitMin}), ascending. A segment {@code (a, b)} off the centre is the
 * smallest of its 8 images and no symmetry maps it onto itself (a queen pair that a symmetry kept
 * would attack itself), so its solutions are all asymmetric and each stands for 8: its tasks are
 * all column sets of the right size, ascending.
 */
final class Segment {

    final int n;
    final int h;
    /** The first row (and column) of the bottom (right) half: h, or h + 1 past the middle line. */
    final int offset;
    /** The column of the middle row's queen, or -1 on an even board. */
    final int queenColumn;
    /** The row of the middle column's queen, or -1 on an even board. */
    final int queenRow;
    /** Whether the 8 symmetries are used (even board, centre). */
    final boolean symmetric;
    /** The columns the quadrants' queens may use, as a set of {@code 2h} lines. */
    final int columns;
    /** The rows of the top and bottom quadrants their queens may use (bit r: the half's row r). */
    final int topRows;
    final int bottomRows;
    /** The diagonals the middle queens occupy, in the board's numbering ("/" r + c, "\" r - c + n - 1). */
    final long occupiedSlash;
    final long occupiedBack;
    private final int[] canonical;

    private Segment(int n, int queenColumn, int queenRow) {
        this.n = n;
        this.h = n / 2;
        this.offset = n - h;
        this.queenColumn = queenColumn;
        this.queenRow = queenRow;
        this.symmetric = queenColumn == queenRow;
        int half = (1 << h) - 1;
        int leftColumns = half;
        int rightColumns = half;
        int top = half;
        int bottom = half;
        long slash = 0;
        long back = 0;
        if (queenColumn >= 0) {
            slash = 1L << (h + queenColumn) | 1L << (queenRow + h);
            back = 1L << (h - queenColumn + n - 1) | 1L << (queenRow - h + n - 1);
        }
        if (!symmetric) {
            if (queenColumn < h) {
                leftColumns &= ~(1 << queenColumn);
            } else {
                rightColumns &= ~(1 << (queenColumn - offset));
            }
            if (queenRow < h) {
                top &= ~(1 << queenRow);
            } else {
                bottom &= ~(1 << (queenRow - offset));
            }
        }
        this.columns = leftColumns | rightColumns << h;
        this.topRows = top;
        this.bottomRows = bottom;
        this.occupiedSlash = slash;
        this.occupiedBack = back;
        this.canonical = symmetric ? canonicalColumnSets(h) : null;
    }

    /**
     * The segments of size {@code n} in their fixed order: the whole board for even n; the centre,
     * then the canonical pairs {@code (a, b)} by {@code a}, then {@code b}, for odd n.
     */
    static List<Segment> of(int n) {
        if (n < 2) {
            throw new IllegalArgumentException("board size " + n + " has no quadrants");
        }
        if (n % 2 == 0) {
            return List.of(new Segment(n, -1, -1));
        }
        int h = n / 2;
        List<Segment> segments = new ArrayList<>();
        segments.add(new Segment(n, h, h));
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (a != h && b != h && Math.abs(a - h) != Math.abs(b - h) && isCanonical(n, a, b)) {
                    segments.add(new Segment(n, a, b));
                }
            }
        }
        return List.copyOf(segments);
    }

    /** Whether the queens (h, a) and (b, h) are the smallest {@code (a, b)} among their 8 images. */
    private static boolean isCanonical(int n, int a, int b) {
        int h = n / 2;
        for (int g = 0; g < SquareSymmetry.COUNT; g++) {
            int first = SquareSymmetry.transform(n, g, h, a);
            int second = SquareSymmetry.transform(n, g, b, h);
            // The image of the middle row's queen is in the middle row or the middle column.
            int inRow = first >> 8 == h ? first : second;
            int inColumn = first >> 8 == h ? second : first;
            if ((inRow & 0xff) < a || (inRow & 0xff) == a && inColumn >> 8 < b) {
                return false;
            }
        }
        return true;
    }

    /** The queens of the top half: h, or h - 1 when the middle column's queen is there. */
    int topQueens() {
        return Integer.bitCount(topRows);
    }

    /** How many tasks (column sets) the segment has. */
    int tasks() {
        if (symmetric) {
            return canonical.length;
        }
        return (int) Binomial.of(Integer.bitCount(columns), topQueens());
    }

    /** The column set of task {@code index}, in ascending order of column sets. */
    int columnSet(int index) {
        if (symmetric) {
            return canonical[index];
        }
        return deposit(Binomial.unrank(index, topQueens()), columns);
    }

    /** The column set after {@code set} among this segment's tasks (for walking a unit's tasks). */
    int nextColumnSet(int index, int set) {
        if (symmetric) {
            return canonical[index + 1];
        }
        return deposit(Binomial.nextSameCount(extract(set, columns)), columns);
    }

    /** Short text for the unit list's fingerprint and messages. */
    String describe() {
        if (!symmetric) {
            return "queens (" + h + "," + queenColumn + ") (" + queenRow + "," + h + ")";
        }
        return n % 2 == 0 ? "whole board" : "queen at the centre";
    }

    /**
     * The sets of {@code 2h} lines with {@code h} elements that are the smallest of their four
     * images, ascending: about a quarter of all.
     */
    private static int[] canonicalColumnSets(int h) {
        PairSymmetry symmetry = new PairSymmetry(2 * h);
        int[] sets = new int[(int) (Binomial.of(2 * h, h) / 4 + (1 << h) + 2)];
        int count = 0;
        int first = (1 << h) - 1;
        for (int set = first; set < 1 << 2 * h; set = Binomial.nextSameCount(set)) {
            if (symmetry.orbitMin(set) == set) {
                sets[count++] = set;
            }
        }
        return Arrays.copyOf(sets, count);
    }

    /** The bits of {@code compact} placed, lowest first, on the set bits of {@code mask}. */
    static int deposit(int compact, int mask) {
        int result = 0;
        for (int m = mask; compact != 0 && m != 0; m &= m - 1, compact >>>= 1) {
            if ((compact & 1) != 0) {
                result |= m & -m;
            }
        }
        return result;
    }

    /** The bits of {@code value} on the set bits of {@code mask}, packed from bit 0. */
    static int extract(int value, int mask) {
        int result = 0;
        int at = 0;
        for (int m = mask; m != 0; m &= m - 1, at++) {
            if ((value & m & -m) != 0) {
                result |= 1 << at;
            }
        }
        return result;
    }
}
