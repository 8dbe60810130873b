package dev.nqueens.count;

import java.util.Arrays;
import java.util.Map;

/**
 * Counts the solutions of one task: one column set {@code C} of the top half's queens in one
 * {@link Segment}. The top half's placements on {@code C} and the bottom half's on the other
 * columns are built ({@link HalfBoard}), grouped by the rows of their left quadrants, and every
 * pair that shares no diagonal is a solution ({@link DisjointPairs}).
 *
 * <p>In a symmetric segment the top group {@code Lt} and the bottom group {@code Lb} together
 * give the rows {@code L = Lt | Lb << h} of the left half's queens, and only pairs
 * {@code (C, L)} with {@code orbitMin(L) >= C} are counted ({@link PairSymmetry}). Whether
 * {@code orbitMin(L)} is above {@code C} is decided by the high halves of its four images first:
 * those of {@code L} and {@code ~L} are {@code Lb} and {@code ~Lb}, those of {@code rev L} and
 * {@code ~rev L} are {@code rev Lt} and {@code ~rev Lt}. So a group whose two high halves are
 * above {@code C}'s is "free" (it counts against every free group of the other half), one with a
 * high half below is left out, and the few with a high half equal to {@code C}'s ("ties") decide
 * with the other half's group, pair by pair:
 *
 * <pre>
 *                 bottom groups Lb
 *              free ........ tie   out
 *   top   free [ main block ][ ≥ ][  ]     main block: one count of many pairs
 *   groups  .. [            ][   ][  ]     ≥: a tie group against the groups it is above
 *   Lt    tie  [ ≥          ][ ≥ ][  ]     out: never built
 *         out  [            ][   ][  ]
 * </pre>
 *
 * <p>Not thread-safe: one per engine.
 */
final class TaskCounter {

    private static final byte FREE = 0;
    private static final byte TIE = 1;
    private static final byte OUT = 2;

    private final PairSymmetry symmetry;
    private final QuadrantPatterns quadrants;
    private final HalfBoard top;
    private final HalfBoard bottom;
    private final DisjointPairs pairs;
    private final Map<Long, Long> quarterTurn;
    private final int h;
    private final int half;
    private final int[] bottomGroupOf;
    private Segment segment;
    private byte[] topState = new byte[64];
    private byte[] bottomState = new byte[64];
    private int[] itemRanges = new int[128];
    private int[] patternRanges = new int[128];
    private final java.util.Map<Long, int[]> subsetLists = new java.util.HashMap<>();
    private final int[] single = new int[2];
    private final int[] other = new int[2];

    /** A counter for boards of size {@code n} (at least 2), whose halves join the patterns of {@code quadrants}. */
    TaskCounter(int n, QuadrantPatterns quadrants, Layout layout) {
        this.h = n / 2;
        this.symmetry = new PairSymmetry(2 * h);
        this.quadrants = quadrants;
        this.top = new HalfBoard(n, quadrants);
        this.bottom = new HalfBoard(n, quadrants);
        this.pairs = new DisjointPairs(top.patternBits(), layout);
        this.quarterTurn = QuarterTurnSolutions.byPair(n);
        this.half = (1 << h) - 1;
        this.bottomGroupOf = new int[1 << h];
    }

    /** Adds the counts of column set {@code c} of {@code segment} to {@code tally}. */
    void count(Segment segment, int c, Tally tally) {
        if (segment != this.segment) {
            this.segment = segment;
            quadrants.use(segment);
            top.use(segment);
            bottom.use(segment);
        }
        if (segment.symmetric) {
            countSymmetric(c, tally);
        } else {
            countAll(c, tally);
        }
        tally.addWhole("column set " + Integer.toBinaryString(c) + " of " + segment.describe());
    }

    /**
     * A segment off the centre: the top half's placements for every row of the middle column's
     * queen against the bottom half's, each solution standing for 8, all asymmetric.
     */
    private void countAll(int c, Tally tally) {
        top.begin(true, c & half, c >>> h);
        for (int rows = segment.queenRows; rows != 0; rows &= rows - 1) {
            int row = Integer.numberOfTrailingZeros(rows);
            int quadrantRows = segment.topRows & ~(1 << row);
            long queen = segment.queenPattern(row);
            for (int leftRows : subsets(quadrantRows, top.leftQueens())) {
                top.addGroup(quadrantRows, leftRows, queen);
            }
        }
        build(bottom, false, segment.columns & ~c, null, 0);
        single[0] = 0;
        single[1] = top.size;
        other[0] = 0;
        other[1] = bottom.size;
        long solutions = pairs.count(top.patterns, single, 1, bottom.patterns, other, 1);
        tally.add(new PairSymmetry.Block(PairSymmetry.COUNT, 1, false, false), solutions, 0, 0);
    }

    private void countSymmetric(int c, Tally tally) {
        int high = c >>> h;
        topState = build(top, true, c, topState, high);
        bottomState = build(bottom, false, segment.columns & ~c, bottomState, high);
        Arrays.fill(bottomGroupOf, -1);
        for (int g = 0; g < bottom.groups; g++) {
            bottomGroupOf[bottom.groupRows[g]] = g;
        }
        long solutions = countFreeGroups();
        for (int g = 0; g < bottom.groups; g++) {
            if (bottomState[g] == TIE) {
                solutions += countTieBottomGroup(c, g, tally);
            }
        }
        for (int g = 0; g < top.groups; g++) {
            if (topState[g] == TIE) {
                solutions += countTieTopGroup(c, g, tally);
            }
        }
        PairSymmetry.Block block =
                new PairSymmetry.Block(PairSymmetry.COUNT / symmetry.columnStabilizer(c), 1, false, false);
        tally.add(block, solutions, halfTurnFixedInCounted(c), 0);
    }

    /**
     * Builds one half's groups on the given 2h-line column set: for a symmetric segment only the
     * groups not left out, each with its state (from the high halves of the images of its rows,
     * against {@code high}); for the others every group.
     */
    private byte[] build(HalfBoard board, boolean isTop, int columnSet, byte[] state, int high) {
        board.begin(isTop, columnSet & half, columnSet >>> h);
        byte[] states = state;
        for (int leftRows : subsets(board.rows(), board.leftQueens())) {
            byte s = states == null ? FREE : stateOf(isTop, leftRows, high);
            if (s != OUT) {
                if (states != null && board.groups >= states.length) {
                    states = Arrays.copyOf(states, 2 * states.length);
                }
                if (states != null) {
                    states[board.groups] = s;
                }
                board.addGroup(leftRows);
            }
        }
        return states;
    }

    /** The subsets of {@code rows} with {@code k} elements, ascending (listed once per pair, a few per segment). */
    private int[] subsets(int rows, int k) {
        long key = (long) rows << 8 | k;
        int[] list = subsetLists.get(key);
        if (list == null) {
            list = new int[(int) Binomial.of(Integer.bitCount(rows), k)];
            int at = 0;
            for (int set = 0; set <= rows; set++) {
                if ((set & ~rows) == 0 && Integer.bitCount(set) == k) {
                    list[at++] = set;
                }
            }
            subsetLists.put(key, list);
        }
        return list;
    }

    /**
     * A top group's rows {@code Lt} give the high halves {@code rev Lt} and {@code ~rev Lt}; a bottom
     * group's {@code Lb} give {@code Lb} and {@code ~Lb}: the smaller of the two against {@code high}.
     */
    private byte stateOf(boolean isTop, int rows, int high) {
        int key = isTop ? Integer.reverse(rows) >>> (32 - h) : rows;
        int smaller = Math.min(key, ~key & half);
        return smaller > high ? FREE : smaller == high ? TIE : OUT;
    }

    private long countFreeGroups() {
        int items = collect(top, topState, FREE, true);
        int patterns = collect(bottom, bottomState, FREE, false);
        return pairs.count(top.patterns, itemRanges, items, bottom.patterns, patternRanges, patterns);
    }

    /** Collects the index ranges of the groups in {@code state} into the item or pattern ranges. */
    private int collect(HalfBoard board, byte[] states, byte wanted, boolean asItems) {
        int count = 0;
        for (int g = 0; g < board.groups; g++) {
            if (states[g] == wanted && board.groupStart[g] < board.groupStart[g + 1]) {
                count = addRange(asItems, count, board.groupStart[g], board.groupStart[g + 1]);
            }
        }
        return count;
    }

    private int addRange(boolean asItems, int count, int from, int to) {
        int[] ranges = asItems ? itemRanges : patternRanges;
        if (2 * count + 2 > ranges.length) {
            ranges = Arrays.copyOf(ranges, 2 * ranges.length);
            if (asItems) {
                itemRanges = ranges;
            } else {
                patternRanges = ranges;
            }
        }
        ranges[2 * count] = from;
        ranges[2 * count + 1] = to;
        return count + 1;
    }

    /**
     * A bottom tie group against every top group above it (pair by pair): returns their solutions;
     * pairs whose rows are an image of the columns are counted on their own into {@code tally}.
     */
    private long countTieBottomGroup(int c, int b, Tally tally) {
        int items = 0;
        for (int t = 0; t < top.groups; t++) {
            int rows = top.groupRows[t] | bottom.groupRows[b] << h;
            int least = symmetry.orbitMin(rows);
            if (least > c) {
                items = addRange(true, items, top.groupStart[t], top.groupStart[t + 1]);
            } else if (least == c) {
                countImagePair(c, t, b, tally);
            }
        }
        single[0] = bottom.groupStart[b];
        single[1] = bottom.groupStart[b + 1];
        return pairs.count(top.patterns, itemRanges, items, bottom.patterns, single, 1);
    }

    /** A top tie group against every free bottom group above it; the small group is the pattern side. */
    private long countTieTopGroup(int c, int t, Tally tally) {
        int items = 0;
        for (int b = 0; b < bottom.groups; b++) {
            if (bottomState[b] != FREE) {
                continue;
            }
            int rows = top.groupRows[t] | bottom.groupRows[b] << h;
            int least = symmetry.orbitMin(rows);
            if (least > c) {
                items = addRange(true, items, bottom.groupStart[b], bottom.groupStart[b + 1]);
            } else if (least == c) {
                countImagePair(c, t, b, tally);
            }
        }
        single[0] = top.groupStart[t];
        single[1] = top.groupStart[t + 1];
        // Disjointness is symmetric: the bottom groups play the items here.
        return pairs.count(bottom.patterns, itemRanges, items, top.patterns, single, 1);
    }

    /**
     * A pair whose rows are one of the four images of the columns: its orbit meets {@code C} more
     * often, and symmetries may map it onto itself; counted with its own weight and fixed solutions.
     */
    private void countImagePair(int c, int t, int b, Tally tally) {
        int rows = top.groupRows[t] | bottom.groupRows[b] << h;
        PairSymmetry.Block block = symmetry.analyse(c, rows);
        single[0] = top.groupStart[t];
        single[1] = top.groupStart[t + 1];
        other[0] = bottom.groupStart[b];
        other[1] = bottom.groupStart[b + 1];
        long solutions = pairs.count(top.patterns, single, 1, bottom.patterns, other, 1);
        long halfTurnFixed = block.halfTurn() ? fitsItsHalfTurn(t) : 0;
        long quarterTurnFixed =
                block.quarterTurn() ? quarterTurn.getOrDefault((long) c << 32 | rows & 0xffffffffL, 0L) : 0;
        tally.add(block, solutions, halfTurnFixed, quarterTurnFixed);
    }

    /**
     * The solutions the half turn leaves unchanged among the pairs counted in the main and tie
     * blocks: only a column set that is the complement of its reverse has them, in the pairs
     * whose bottom rows are the complement of the reverse of the top rows; each is a top
     * placement that fits its own half-turn image.
     */
    private long halfTurnFixedInCounted(int c) {
        if (symmetry.complement(symmetry.reverse(c)) != c) {
            return 0;
        }
        long fixed = 0;
        for (int t = 0; t < top.groups; t++) {
            int bottomRows = ~(Integer.reverse(top.groupRows[t]) >>> (32 - h)) & half;
            int b = bottomGroupOf[bottomRows];
            if (b >= 0 && symmetry.orbitMin(top.groupRows[t] | bottomRows << h) > c) {
                fixed += fitsItsHalfTurn(t);
            }
        }
        return fixed;
    }

    /** The placements of top group {@code t} that fit their own half-turn image. */
    private long fitsItsHalfTurn(int t) {
        long fixed = 0;
        for (int i = top.groupStart[t]; i < top.groupStart[t + 1]; i++) {
            long pattern = top.patterns[i];
            if ((pattern & top.halfTurn(pattern)) == 0) {
                fixed++;
            }
        }
        return fixed;
    }
}
