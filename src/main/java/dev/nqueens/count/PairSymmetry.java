package dev.nqueens.count;

/**
 * How the 8 symmetries of the square act on the pair {@code (C, L)} that files a solution of a
 * board split into quadrants: {@code C} is the set of columns of the queens in the top half and
 * {@code L} the set of rows of the queens in the left half, both sets of {@code 2h} lines (bit i
 * is line i; on an odd board the middle row and column are left out and the lines renumbered).
 * Mirroring the rows swaps the halves top and bottom, so C becomes its complement and L its
 * reverse; mirroring the columns reverses C and complements L; transposing swaps C and L. So
 * every symmetry maps the solutions of pair {@code (C, L)} one to one onto those of another pair,
 * and it is enough to count the pairs of one orbit once, with the orbit's size as weight.
 *
 * <p>The engine counts a column set {@code C} only if it is the smallest of its four images
 * {@code C, ~C, rev C, ~rev C} ({@link #orbitMin}), and with it every row set {@code L} whose own
 * smallest image is not below {@code C}: that takes each orbit of pairs once or, where the orbit
 * meets its {@code C} more than once, a known number of times ({@link #analyse}).
 */
final class PairSymmetry {

    /** Index of the half turn in {@link #image}. */
    static final int HALF_TURN = 3;
    /** Index of the quarter turn. */
    static final int QUARTER_TURN = 5;

    static final int COUNT = 8;

    private final int lines;
    private final int all;

    /** The symmetries of pairs of sets of {@code lines} lines ({@code 2h}, at most 30). */
    PairSymmetry(int lines) {
        if (lines < 2 || lines > 30 || lines % 2 != 0) {
            throw new IllegalArgumentException("pairs of sets of " + lines + " lines");
        }
        this.lines = lines;
        this.all = (1 << lines) - 1;
    }

    int complement(int set) {
        return ~set & all;
    }

    /** The set mirrored: line i becomes line {@code lines - 1 - i}. */
    int reverse(int set) {
        return Integer.reverse(set) >>> (32 - lines);
    }

    /** The smallest of {@code set}, its complement, its reverse and the complement of its reverse. */
    int orbitMin(int set) {
        int reversed = reverse(set);
        return Math.min(Math.min(set, complement(set)), Math.min(reversed, complement(reversed)));
    }

    /**
     * The image of the pair {@code (c, l)} under symmetry {@code g}, packed as
     * {@code C << 32 | L}: 0 identity, 1 rows mirrored, 2 columns mirrored, 3 half turn,
     * 4 transpose, 5 quarter turn, 6 three-quarter turn, 7 anti-transpose.
     */
    long image(int g, int c, int l) {
        return switch (g) {
            case 0 -> pack(c, l);
            case 1 -> pack(complement(c), reverse(l));
            case 2 -> pack(reverse(c), complement(l));
            case 3 -> pack(complement(reverse(c)), complement(reverse(l)));
            case 4 -> pack(l, c);
            case 5 -> pack(reverse(l), complement(c));
            case 6 -> pack(complement(l), reverse(c));
            case 7 -> pack(complement(reverse(l)), complement(reverse(c)));
            default -> throw new IllegalArgumentException("symmetry " + g + " is outside 0..7");
        };
    }

    private static long pack(int c, int l) {
        return (long) c << 32 | l & 0xffffffffL;
    }

    /**
     * How many of the mirror and turn symmetries that keep the top half's columns in the top half
     * (identity, rows mirrored, columns mirrored, half turn) map {@code c} onto itself: 1, or 2
     * for a column set that is its own reverse or the complement of its reverse.
     */
    int columnStabilizer(int c) {
        int s = 1;
        if (reverse(c) == c) {
            s++;
        }
        if (complement(reverse(c)) == c) {
            s++;
        }
        return s;
    }

    /**
     * What counting the pair {@code (c, l)} means, where {@code c} is the smallest of its images and
     * {@code orbitMin(l) >= c}: the weight of its solutions and which turns leave it unchanged.
     */
    Block analyse(int c, int l) {
        int sameColumns = 0;
        int stabilizer = 0;
        boolean halfTurn = false;
        boolean quarterTurn = false;
        long self = pack(c, l);
        for (int g = 0; g < COUNT; g++) {
            long image = image(g, c, l);
            if ((int) (image >>> 32) == c) {
                sameColumns++;
            }
            if (image == self) {
                stabilizer++;
                halfTurn |= g == HALF_TURN;
                quarterTurn |= g == QUARTER_TURN;
            }
        }
        return new Block(COUNT / sameColumns, stabilizer, halfTurn, quarterTurn);
    }

    /**
     * The weight of one pair's solutions and its symmetry. The orbit of a pair meets the counted
     * column set {@code c} in {@code 8 / weight} of its symmetries' images, each image of a
     * solution counted once there: each solution stands for {@code weight} solutions of the board,
     * the orbit's solutions being {@code 8 / stabilizer} times the pair's.
     *
     * @param weight solutions of the board per solution counted in this pair (8, 4 or 2)
     * @param stabilizer how many symmetries map the pair onto itself (1, 2 or 4)
     * @param halfTurn whether the half turn does: its solutions may be unchanged by it
     * @param quarterTurn whether the quarter turn does
     */
    record Block(int weight, int stabilizer, boolean halfTurn, boolean quarterTurn) {}
}
