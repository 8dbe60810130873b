package dev.nqueens.count;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A task's estimated cost, the same on every host: what work units are balanced, ordered and
 * weighed by. A half's expected placements follow from how its queens split between its two
 * quadrants ({@code k} left, {@code q - k} right) and how many placements of {@code k} queens a
 * quadrant has ({@link #placementsWith}): {@code C(rows, k)} groups, each joining a cell of
 * {@code N_k / C(h, k)^2} placements with one of {@code N_(q-k) / C(h, q-k)^2}. A task counts the
 * product of its halves' sizes (the share of it its symmetry keeps) behind a sieve that cuts more
 * of larger products, so its cost grows as that product to the power 0.8, plus the building of
 * its halves. The estimate follows the measured time per task closely across the splits, whose
 * times differ widely (docs/engine.md).
 */
final class TaskCost {

    private static final Map<Integer, int[][]> KEPT = new ConcurrentHashMap<>();
    /** Scales the estimate to whole numbers well above 1 for the smallest tasks. */
    private static final double SCALE = 16;

    private final Segment segment;
    /** Off the centre the cost depends on the split alone: by the top half's left queens. */
    private final long[] bySplit;

    /** The cost model of {@code segment}'s tasks. */
    TaskCost(Segment segment) {
        this.segment = segment;
        if (segment.symmetric) {
            this.bySplit = null;
        } else {
            int half = (1 << segment.h) - 1;
            int leftColumns = Integer.bitCount(segment.columns & half);
            this.bySplit = new long[segment.h + 1];
            for (int k = 0; k <= segment.h; k++) {
                int top = k == 0 ? 0 : (1 << k) - 1;
                int c = Segment.deposit(top, segment.columns & half)
                        | Segment.deposit(
                                        (1 << Math.max(0, segment.topQueens() - k)) - 1, segment.columns >>> segment.h)
                                << segment.h;
                bySplit[k] = k <= leftColumns && segment.topQueens() - k <= segment.h ? of(segment, c) : 1;
            }
        }
    }

    /** Off the centre: the estimated cost of a task with {@code left} queens in the top left quadrant. */
    long ofSplit(int left) {
        return bySplit[left];
    }

    /** The estimated cost of column set {@code c} of this segment: at least 1. */
    long of(int c) {
        if (bySplit != null) {
            return bySplit[Integer.bitCount(c & ((1 << segment.h) - 1))];
        }
        return of(segment, c);
    }

    /** The estimated cost of column set {@code c} of {@code segment}: at least 1. */
    static long of(Segment segment, int c) {
        int h = segment.h;
        int half = (1 << h) - 1;
        int bottom = segment.columns & ~c;
        // Off the centre the top half holds one set of placements per row of the middle column's queen.
        double top = segment.symmetric
                ? halfSize(h, h, Integer.bitCount(c & half))
                : Integer.bitCount(segment.queenRows) * halfSize(h, h - 1, Integer.bitCount(c & half));
        double low = halfSize(h, Integer.bitCount(segment.bottomRows), Integer.bitCount(bottom & half));
        double kept = 1;
        if (segment.symmetric) {
            int[][] above = keptRows(h);
            int high = c >>> h;
            kept = fraction(above, h, Integer.bitCount(c & half), high)
                    * fraction(above, h, Integer.bitCount(bottom & half), high);
        }
        double cost = Math.pow(top * low * kept, 0.8) + 8 * (top + low) * Math.sqrt(kept);
        return Math.max(1, Math.round(SCALE * cost / 1000));
    }

    /** The expected placements of a half with {@code rows} rows of which {@code left} hold the left quadrant's queens. */
    private static double halfSize(int h, int rows, int left) {
        int right = rows - left;
        long[] placements = placementsWith(h);
        return Binomial.of(rows, left)
                * (placements[left] / square(Binomial.of(h, left)))
                * (placements[right] / square(Binomial.of(h, right)));
    }

    private static double square(long x) {
        return (double) x * x;
    }

    /** The share of the row sets of {@code k} rows whose state is not "left out" against {@code high}. */
    private static double fraction(int[][] above, int h, int k, int high) {
        return above[k][high] / (double) Binomial.of(h, k);
    }

    /**
     * {@code kept[k][v]}: how many sets of {@code k} of the h rows have the smaller of themselves
     * and their complement at least {@code v} (what {@link TaskCounter} keeps of a bottom half;
     * the reverse of the top half's row sets runs through the same sets).
     */
    private static int[][] keptRows(int h) {
        return KEPT.computeIfAbsent(h, size -> {
            int all = (1 << size) - 1;
            int[][] kept = new int[size + 1][1 << size];
            for (int set = 0; set <= all; set++) {
                kept[Integer.bitCount(set)][Math.min(set, ~set & all)]++;
            }
            for (int[] row : kept) {
                for (int v = row.length - 2; v >= 0; v--) {
                    row[v] += row[v + 1];
                }
            }
            return kept;
        });
    }

    /**
     * The placements of {@code k} non-attacking queens on an {@code h×h} square, for each k: the
     * counts of this engine's quadrant search (a test recounts them up to h = 10; their sums are
     * {@link QuadrantTable#placements}).
     */
    static long[] placementsWith(int h) {
        return switch (h) {
            case 1 -> new long[] {1, 1};
            case 2 -> new long[] {1, 4, 0};
            case 3 -> new long[] {1, 9, 8, 0};
            case 4 -> new long[] {1, 16, 44, 24, 2};
            case 5 -> new long[] {1, 25, 140, 204, 82, 10};
            case 6 -> new long[] {1, 36, 340, 1_024, 982, 248, 4};
            case 7 -> new long[] {1, 49, 700, 3_628, 7_002, 4_618, 832, 40};
            case 8 -> new long[] {1, 64, 1_288, 10_320, 34_568, 46_736, 22_708, 3_192, 92};
            case 9 -> new long[] {1, 81, 2_184, 25_096, 131_248, 310_496, 312_956, 119_180, 13_848, 352};
            case 10 ->
                new long[] {1, 100, 3_480, 54_400, 412_596, 1_535_440, 2_716_096, 2_119_176, 636_524, 56_832, 724};
            case 11 ->
                new long[] {
                    1,
                    121,
                    5_280,
                    107_880,
                    1_123_832,
                    6_110_256,
                    17_117_832,
                    23_636_352,
                    14_803_480,
                    3_634_976,
                    264_544,
                    2_680
                };
            case 12 ->
                new long[] {
                    1,
                    144,
                    7_700,
                    199_400,
                    2_739_386,
                    20_609_544,
                    84_871_680,
                    186_506_000,
                    207_667_564,
                    107_305_664,
                    22_146_756,
                    1_375_368,
                    14_200
                };
            default -> throw new IllegalArgumentException("quadrants of side " + h + " are not tabulated");
        };
    }
}
