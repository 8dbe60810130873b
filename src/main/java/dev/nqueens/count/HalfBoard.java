package dev.nqueens.count;

import java.util.Arrays;

/**
 * The placements of one half of the board (top or bottom) on a given set of columns, built by
 * joining the placements of its left and right quadrants from a {@link QuadrantSource}, and
 * grouped by the rows the left quadrant's queens take ("groups"). Each placement is kept only as
 * what the other half must avoid: the diagonals that cross the border between the halves.
 *
 * <pre>
 *        left          right
 *    +-----------+-----------+
 *    | L rows,   | other     |   top half: a placement of the left quadrant on rows L and
 *    | columns   | rows,     |   columns C_left, and one of the right quadrant on the other
 *    | C_left    | C_right   |   rows and columns C_right, that share no diagonal
 *    +-----------+-----------+ &lt;- the border: which diagonals cross it is all the bottom half
 *    |           |           |      needs to know about the top half (a "pattern")
 * </pre>
 *
 * <p>A pattern has {@code 2(2h - 1)} bits, the diagonals that meet both halves, the two directions
 * interleaved: bit {@code 2i} is the "/" diagonal {@code r + c = offset + i}, bit {@code 2i + 1} the
 * "\" diagonal {@code r - c + n - 1 = offset + i}. Interleaved, the diagonals through the middle of
 * the border, the ones both halves occupy most often, are neighbouring bits in the middle of the
 * pattern, where {@link DisjointPairs} cuts its sieve bits with two shifts. A top placement and a
 * bottom placement on complementary columns make a solution if and only if their patterns share
 * no bit (rows, columns and the other diagonals are disjoint by construction).
 *
 * <p>The two quadrants of a half can only share diagonals that cross the border too (a "/"
 * diagonal of the left quadrant reaches the right one only below row {@code offset - 1 - ...},
 * i.e. on its way to the other half), so two quadrant placements fit together exactly when their
 * patterns share no bit, and the half's pattern is their OR. A quadrant's pattern comes from its
 * stored diagonals by shifting each direction by 0 or {@code ±offset} diagonals: no per-square work.
 *
 * <p>Not thread-safe; buffers grow to the largest half seen and are reused.
 */
final class HalfBoard {

    private static final long SLASHES = 0x5555555555555555L;
    private static final long BACKS = 0xAAAAAAAAAAAAAAAAL;

    private final QuadrantSource quadrants;
    private final int n;
    private final int h;
    private final int offset;
    private final long patternMask;
    private Segment segment;
    /** Per quadrant (0 top left, 1 top right, 2 bottom left, 3 bottom right): its diagonals the middle queens occupy. */
    private final long[] blocked = new long[4];
    private int left;
    private int right;
    private int rows;
    private int leftColumns;
    private int rightColumns;

    /** The patterns of the groups added since {@link #begin}. */
    long[] patterns = new long[1 << 12];
    int size;
    /** Group g has left-quadrant rows {@code groupRows[g]} and patterns {@code groupStart[g] .. groupStart[g + 1] - 1}. */
    int[] groupRows = new int[64];
    int[] groupStart = new int[65];
    int groups;

    private long[] rightPatterns = new long[64];

    /** A half board of size {@code n}, reading its quadrants from {@code quadrants}. */
    HalfBoard(int n, QuadrantSource quadrants) {
        this.quadrants = quadrants;
        this.n = n;
        this.h = n / 2;
        this.offset = n - h;
        this.patternMask = (1L << 2 * (2 * h - 1)) - 1;
    }

    /** Builds the halves of {@code segment} (of this half board's size) from now on. */
    void use(Segment segment) {
        this.segment = segment;
        for (int q = 0; q < 4; q++) {
            blocked[q] = localDiagonals(q, segment.occupiedSlash, segment.occupiedBack);
        }
    }

    /**
     * The diagonals of quadrant {@code q} (in its own interleaved numbering, see
     * {@link QuadrantTable}) that are among the board's diagonals given.
     */
    private long localDiagonals(int q, long slashes, long backs) {
        int firstRow = q < 2 ? 0 : offset;
        int firstColumn = q % 2 == 0 ? 0 : offset;
        long local = 0;
        for (int d = 0; d <= 2 * h - 2; d++) {
            // Square (r, c) of the quadrant is (firstRow + r, firstColumn + c) of the board.
            int slash = d + firstRow + firstColumn;
            int back = d - (h - 1) + firstRow - firstColumn + n - 1;
            if (slash < 64 && (slashes >>> slash & 1) != 0) {
                local |= 1L << 2 * d;
            }
            if (back >= 0 && back < 64 && (backs >>> back & 1) != 0) {
                local |= 1L << 2 * d + 1;
            }
        }
        return local;
    }

    /** Bits of a pattern: two directions of {@code 2h - 1} diagonals. */
    int patternBits() {
        return 2 * (2 * h - 1);
    }

    /**
     * Starts the placements of the top or bottom half on columns {@code leftColumns} (of the left
     * quadrant) and {@code rightColumns} (of the right), with no group yet.
     */
    void begin(boolean top, int leftColumns, int rightColumns) {
        this.left = top ? 0 : 2;
        this.right = left + 1;
        this.rows = top ? segment.topRows : segment.bottomRows;
        this.leftColumns = leftColumns;
        this.rightColumns = rightColumns;
        size = 0;
        groups = 0;
        groupStart[0] = 0;
    }

    /** The rows of this half its queens take: {@link Segment#topRows} or {@link Segment#bottomRows}. */
    int rows() {
        return rows;
    }

    /** How many queens the left quadrant holds: as many as its columns. */
    int leftQueens() {
        return Integer.bitCount(leftColumns);
    }

    /**
     * Adds the group of placements whose left quadrant takes rows {@code leftRows} (a subset of
     * {@link #rows()} of {@link #leftQueens()} rows): every pair of a left placement and a right
     * placement on the other rows that share no diagonal, none on a diagonal of the middle queens.
     */
    void addGroup(int leftRows) {
        int rightCount = patternsOfRight(rows & ~leftRows);
        quadrants.select(leftRows, leftColumns);
        long[] entries = quadrants.array();
        int from = quadrants.from();
        int to = quadrants.to();
        if (rightCount > 0 && size + (long) (to - from) * rightCount > patterns.length) {
            grow(size + (long) (to - from) * rightCount);
        }
        long[] out = patterns;
        long[] others = rightPatterns;
        long leftBlocked = blocked[left];
        int at = size;
        for (int i = from; rightCount > 0 && i < to; i++) {
            long entry = entries[i];
            if ((entry & leftBlocked) != 0) {
                continue;
            }
            long pattern = pattern(left, entry);
            for (int j = 0; j < rightCount; j++) {
                // Written always, kept only if the two quadrants share no diagonal: no branch to
                // mispredict on a test that fails about as often as it passes.
                long other = others[j];
                out[at] = pattern | other;
                at += (int) (((pattern & other) - 1) >>> 63);
            }
        }
        size = at;
        if (groups + 1 >= groupRows.length) {
            groupRows = Arrays.copyOf(groupRows, 2 * groupRows.length);
            groupStart = Arrays.copyOf(groupStart, 2 * groupStart.length + 1);
        }
        groupRows[groups] = leftRows;
        groups++;
        groupStart[groups] = at;
    }

    /** The patterns of the right quadrant's placements on {@code rightRows} clear of the middle queens; returns how many. */
    private int patternsOfRight(int rightRows) {
        quadrants.select(rightRows, rightColumns);
        long[] entries = quadrants.array();
        int from = quadrants.from();
        int to = quadrants.to();
        if (rightPatterns.length < to - from) {
            rightPatterns = new long[Integer.highestOneBit(to - from) * 2];
        }
        long rightBlocked = blocked[right];
        int count = 0;
        for (int i = from; i < to; i++) {
            long entry = entries[i];
            rightPatterns[count] = pattern(right, entry);
            count += (int) (((entry & rightBlocked) - 1) >>> 63);
        }
        return count;
    }

    /**
     * The pattern of a placement of quadrant {@code q} from its interleaved diagonals: the border's
     * diagonal {@code offset + i} is the quadrant's diagonal {@code i + offset} (top left "/",
     * top right "\"), {@code i} (top right "/", top left "\", bottom left "/", bottom right "\") or
     * {@code i - offset} (bottom left "\", bottom right "/"), so each direction is shifted by
     * {@code 2·offset} bits or not at all, and what falls outside the border is cut off.
     */
    private long pattern(int q, long diagonals) {
        long slashes = diagonals & SLASHES;
        long backs = diagonals & BACKS;
        int shift = 2 * offset;
        return switch (q) {
            case 0 -> slashes >>> shift | backs;
            case 1 -> slashes | backs >>> shift;
            case 2 -> slashes | backs << shift;
            default -> slashes << shift | backs;
        } & patternMask;
    }

    private void grow(long needed) {
        if (needed > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a half board of " + needed + " placements does not fit in an array");
        }
        patterns = Arrays.copyOf(patterns, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, patterns.length * 3L / 2)));
    }

    /**
     * The pattern of the half-turn image of a top placement, as a bottom placement: the half turn
     * maps diagonal {@code offset + i} of either direction to {@code offset + 2h - 2 - i} of the same
     * direction. Reversing the whole pattern does that but swaps the directions (bit 2i + d goes to
     * bit 2(2h - 2 - i) + 1 - d), so each pair of bits is swapped back.
     */
    long halfTurn(long pattern) {
        long reversed = Long.reverse(pattern) >>> (64 - patternBits());
        return (reversed & SLASHES) << 1 | (reversed >>> 1 & SLASHES);
    }
}
