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
 * <p>The two quadrants of a half share only diagonals that cross the border too: a diagonal
 * that meets both the left and the right quadrant of the top half passes below the left one's
 * lowest row on its way, into the bottom half. So two quadrant placements fit together exactly
 * when their patterns share no bit, and the half's pattern is their OR ({@link QuadrantPatterns}).
 *
 * <p>Not thread-safe; buffers grow to the largest half seen and are reused.
 */
final class HalfBoard {

    private static final long SLASHES = 0x5555555555555555L;

    private final QuadrantPatterns quadrants;
    private final int h;
    private Segment segment;
    private int left;
    private int right;
    private int rows;
    private int leftColumns;
    private int rightColumns;

    private long[] withQueen = new long[64];

    /** The patterns of the groups added since {@link #begin}. */
    long[] patterns = new long[1 << 12];

    int size;
    /** Group g has left-quadrant rows {@code groupRows[g]} and patterns {@code groupStart[g] .. groupStart[g + 1] - 1}. */
    int[] groupRows = new int[64];

    int[] groupStart = new int[65];
    int groups;

    /** A half board of size {@code n}, taking its quadrants' patterns from {@code quadrants}. */
    HalfBoard(int n, QuadrantPatterns quadrants) {
        this.quadrants = quadrants;
        this.h = n / 2;
    }

    /** Builds the halves of {@code segment} from now on (its quadrants must be in use). */
    void use(Segment segment) {
        this.segment = segment;
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
     * placement on the other rows that share no diagonal.
     */
    void addGroup(int leftRows) {
        addGroup(rows, leftRows, 0);
    }

    /**
     * Adds a group of placements of the quadrants on {@code halfRows} only, with a queen outside
     * the quadrants (the middle column's, whose row is not in {@code halfRows}) of pattern
     * {@code extra}: every placement that shares no diagonal with it either, its pattern included.
     */
    void addGroup(int halfRows, int leftRows, long extra) {
        int rightCount = quadrants.select(right, halfRows & ~leftRows, rightColumns);
        int leftCount = rightCount == 0 ? 0 : quadrants.select(left, leftRows, leftColumns);
        long[] lefts = quadrants.array(left);
        int leftFrom = quadrants.from(left);
        if (extra != 0 && leftCount > 0) {
            leftCount = withQueen(lefts, leftFrom, leftCount, extra);
            lefts = withQueen;
            leftFrom = 0;
        }
        if (size + (long) leftCount * rightCount > patterns.length) {
            grow(size + (long) leftCount * rightCount);
        }
        size = join(
                lefts, leftFrom, leftCount, quadrants.array(right), quadrants.from(right), rightCount, patterns, size);
        if (groups + 1 >= groupRows.length) {
            groupRows = Arrays.copyOf(groupRows, 2 * groupRows.length);
            groupStart = Arrays.copyOf(groupStart, 2 * groupStart.length + 1);
        }
        groupRows[groups] = leftRows;
        groups++;
        groupStart[groups] = size;
    }

    /**
     * Copies into {@link #withQueen} the left patterns that share no bit with {@code extra}, each
     * with {@code extra} added; returns how many.
     */
    private int withQueen(long[] lefts, int from, int count, long extra) {
        if (withQueen.length < count) {
            withQueen = new long[Integer.highestOneBit(count) * 2];
        }
        long[] out = withQueen;
        int kept = 0;
        for (int i = from; i < from + count; i++) {
            long pattern = lefts[i];
            out[kept] = pattern | extra;
            kept += (int) (((pattern & extra) - 1) >>> 63);
        }
        return kept;
    }

    /**
     * Writes at {@code at} the OR of every pair of a left and a right pattern that share no bit;
     * returns the end. Each OR is written always and kept only if the pair fits: no branch to
     * mispredict on a test that fails about as often as it passes. The shorter list is the inner
     * loop and, up to 4 patterns (most cells off the centre of an odd board), is unrolled: a loop
     * of a few turns costs more in set-up and in its mispredicted exit than in its work.
     */
    private static int join(
            long[] lefts,
            int leftFrom,
            int leftCount,
            long[] rights,
            int rightFrom,
            int rightCount,
            long[] out,
            int at) {
        if (rightCount > leftCount) {
            return join(rights, rightFrom, rightCount, lefts, leftFrom, leftCount, out, at);
        }
        int end = at;
        int last = leftFrom + leftCount;
        switch (rightCount) {
            case 0:
                return end;
            case 1: {
                long r0 = rights[rightFrom];
                for (int i = leftFrom; i < last; i++) {
                    end = keep(out, end, lefts[i], r0);
                }
                return end;
            }
            case 2: {
                long r0 = rights[rightFrom];
                long r1 = rights[rightFrom + 1];
                for (int i = leftFrom; i < last; i++) {
                    long pattern = lefts[i];
                    end = keep(out, keep(out, end, pattern, r0), pattern, r1);
                }
                return end;
            }
            case 3: {
                long r0 = rights[rightFrom];
                long r1 = rights[rightFrom + 1];
                long r2 = rights[rightFrom + 2];
                for (int i = leftFrom; i < last; i++) {
                    long pattern = lefts[i];
                    end = keep(out, keep(out, keep(out, end, pattern, r0), pattern, r1), pattern, r2);
                }
                return end;
            }
            case 4: {
                long r0 = rights[rightFrom];
                long r1 = rights[rightFrom + 1];
                long r2 = rights[rightFrom + 2];
                long r3 = rights[rightFrom + 3];
                for (int i = leftFrom; i < last; i++) {
                    long pattern = lefts[i];
                    end = keep(
                            out,
                            keep(out, keep(out, keep(out, end, pattern, r0), pattern, r1), pattern, r2),
                            pattern,
                            r3);
                }
                return end;
            }
            default:
                for (int i = leftFrom; i < last; i++) {
                    long pattern = lefts[i];
                    for (int j = rightFrom; j < rightFrom + rightCount; j++) {
                        end = keep(out, end, pattern, rights[j]);
                    }
                }
                return end;
        }
    }

    /** Writes {@code a | b} at {@code at}; returns {@code at + 1} if they share no bit, else {@code at}. */
    private static int keep(long[] out, int at, long a, long b) {
        out[at] = a | b;
        return at + (int) (((a & b) - 1) >>> 63);
    }

    private void grow(long needed) {
        if (needed > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a half board of " + needed + " placements does not fit in an array");
        }
        patterns = Arrays.copyOf(
                patterns, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, patterns.length * 3L / 2)));
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
