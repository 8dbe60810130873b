package dev.nqueens.count;

import dev.nqueens.board.Symmetry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One family of the column sets a size is counted by. An even board {@code n = 2h} is split into
 * four quadrants of side {@code h} and has one segment. An odd board {@code n = 2h + 1} is split
 * by its middle row and middle column, whose queens stand at {@code (h, a)} and {@code (b, h)}
 * (one queen at the centre when {@code a = b = h}): the centre is one segment, and each column
 * {@code a} of the middle row's queen another, with every row {@code b} of the middle column's
 * queen that makes the pair {@code (a, b)} canonical. Every solution has one such pair, so the
 * segments split the solutions.
 *
 * <p>A task is one column set {@code C} of the queens of the top half's quadrants, on the
 * {@code 2h} columns outside the middle column (renumbered, see {@link PairSymmetry}). The even
 * board and the centre keep the 8 symmetries of the square: their tasks are the column sets
 * smallest among their images ({@link PairSymmetry#orbitMin}), ascending. Off the centre, a pair
 * {@code (a, b)} is counted if it is the smallest of its 8 images; no symmetry maps it onto itself
 * (a symmetry that kept both middle queens would put them on one diagonal), so its solutions are
 * all asymmetric and each stands for 8, and its tasks are all column sets of the right size,
 * ascending. A canonical pair always has {@code 0 < b < h} (mirroring the rows would give a smaller
 * image otherwise), so the middle column's queen is in the top half: the top half of a task holds
 * the placements for each allowed {@code b} together, each with that queen's diagonals in its
 * pattern, and the bottom half, which no longer depends on {@code b}, is built once for all.
 */
final class Segment {

    final int n;
    final int h;
    /** The first row (and column) of the bottom (right) half: h, or h + 1 past the middle line. */
    final int offset;
    /** The column of the middle row's queen, or -1 on an even board. */
    final int queenColumn;
    /** Off the centre: the rows (all below h) the middle column's queen may take; else 0. */
    final int queenRows;
    /** Whether the 8 symmetries are used (even board, centre). */
    final boolean symmetric;
    /** The columns the quadrants' queens may use, as a set of {@code 2h} lines. */
    final int columns;
    /** The rows of the top and bottom quadrants (bit r: the half's row r), before a middle queen takes one. */
    final int topRows;

    final int bottomRows;
    /** The diagonals the middle row's queen occupies, in the board's numbering ("/" r + c, "\" r - c + n - 1). */
    final long occupiedSlash;

    final long occupiedBack;
    private final int[] canonical;

    private Segment(int n, int queenColumn, int queenRows) {
        this.n = n;
        this.h = n / 2;
        this.offset = n - h;
        this.queenColumn = queenColumn;
        this.queenRows = queenRows;
        this.symmetric = queenColumn < 0 || queenColumn == h;
        int half = (1 << h) - 1;
        int leftColumns = half;
        int rightColumns = half;
        long slash = 0;
        long back = 0;
        if (queenColumn >= 0) {
            // The middle row's queen; the centre queen is also the middle column's.
            slash = 1L << (h + queenColumn);
            back = 1L << (h - queenColumn + n - 1);
        }
        if (!symmetric) {
            if (queenColumn < h) {
                leftColumns &= ~(1 << queenColumn);
            } else {
                rightColumns &= ~(1 << (queenColumn - offset));
            }
        }
        this.columns = leftColumns | rightColumns << h;
        this.topRows = half;
        this.bottomRows = half;
        this.occupiedSlash = slash;
        this.occupiedBack = back;
        this.canonical = symmetric ? canonicalColumnSets(h) : null;
    }

    /**
     * The segments of size {@code n} in their fixed order: the whole board for even n; the centre,
     * then each column {@code a} of the middle row's queen with a canonical pair, ascending, for
     * odd n.
     */
    static List<Segment> of(int n) {
        if (n < 2) {
            throw new IllegalArgumentException("board size " + n + " has no quadrants");
        }
        if (n % 2 == 0) {
            return List.of(new Segment(n, -1, 0));
        }
        int h = n / 2;
        List<Segment> segments = new ArrayList<>();
        segments.add(new Segment(n, h, 0));
        for (int a = 0; a < n; a++) {
            int rows = 0;
            for (int b = 0; b < n; b++) {
                if (a != h && b != h && Math.abs(a - h) != Math.abs(b - h) && isCanonical(n, a, b)) {
                    if (b == 0 || b > h) {
                        throw new IllegalStateException(
                                "canonical middle queens (" + a + ", " + b + ") off the top half");
                    }
                    rows |= 1 << b;
                }
            }
            if (rows != 0) {
                segments.add(new Segment(n, a, rows));
            }
        }
        return List.copyOf(segments);
    }

    /**
     * The pattern bits of the middle column's queen on row {@code b} (0 < b < h): its two
     * diagonals {@code b + h}, both window diagonal {@code b - 1} of the border (see
     * {@link HalfBoard}).
     */
    long queenPattern(int b) {
        return 3L << 2 * (b - 1);
    }

    /** Whether the queens (h, a) and (b, h) are the smallest {@code (a, b)} among their 8 images. */
    private static boolean isCanonical(int n, int a, int b) {
        int h = n / 2;
        for (int g = 0; g < Symmetry.COUNT; g++) {
            int first = Symmetry.square(n, g, h, a);
            int second = Symmetry.square(n, g, b, h);
            // The image of the middle row's queen is in the middle row or the middle column.
            int inRow = first >> 8 == h ? first : second;
            int inColumn = first >> 8 == h ? second : first;
            if ((inRow & 0xff) < a || (inRow & 0xff) == a && inColumn >> 8 < b) {
                return false;
            }
        }
        return true;
    }

    /** The queens of the top half's quadrants: h, or h - 1 off the centre (the middle column's queen takes a row). */
    int topQueens() {
        return symmetric ? h : h - 1;
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
            StringBuilder rows = new StringBuilder();
            for (int r = queenRows; r != 0; r &= r - 1) {
                rows.append(rows.length() == 0 ? "" : ",").append(Integer.numberOfTrailingZeros(r));
            }
            return "queens (" + h + "," + queenColumn + ") and (b," + h + ") for b in " + rows;
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
