package dev.nqueens.count;

/**
 * What counting a size holds in the heap: the shared quadrant table and, per counting thread, the
 * two halves of the largest task and the sieve's copies and chunk tables of them.
 */
final class MemoryModel {

    /**
     * Bytes per placement of the largest half a thread holds: 8 in its half board, 8 in the
     * sieve's sorted copy, 56 of chunk tables when it is the pattern side, times 2 for the two
     * halves, plus headroom for buffers grown by doubling.
     */
    private static final long BYTES_PER_PLACEMENT = 200;
    /** Heap a counting thread needs beyond its halves: small buffers, the JIT's and GC's slack. */
    private static final long THREAD_BASE = 16L << 20;

    private MemoryModel() {}

    /** Heap bytes of the quadrant table of size {@code n}, or a huge number where it is never built. */
    static long tableBytes(int n) {
        int h = n / 2;
        return h <= QuadrantTable.MAX_SIDE ? QuadrantTable.bytes(h) : Long.MAX_VALUE / 4;
    }

    /** Heap bytes one counting thread of size {@code n} needs. */
    static long threadBytes(int n) {
        return THREAD_BASE + BYTES_PER_PLACEMENT * largestHalf(n);
    }

    /** Heap bytes the threads share with {@code layout}: the quadrant table unless quadrants are searched. */
    static long sharedBytes(int n, Layout layout) {
        return layout.searchQuadrants() ? 0 : tableBytes(n);
    }

    /** How many counting threads of size {@code n} with {@code layout} fit in the heap left. */
    static int threadsThatFit(int n, Layout layout) {
        if (n == 1) {
            return Integer.MAX_VALUE;
        }
        Runtime runtime = Runtime.getRuntime();
        long free = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (free - sharedBytes(n, layout)) / threadBytes(n)));
    }

    /**
     * The most placements a half of any task of size {@code n} holds: measured up to n = 20 (a
     * harness that built every task's halves as the engine does), beyond it grown by the measured
     * factor from n - 2 (7 for even sizes, 6 for odd).
     */
    static long largestHalf(int n) {
        long[] measured = {
            0, 1, 1, 1, 2, 1, 2, 2, 10, 8, 29, 24, 116, 88, 514, 374, 2_786, 1_969, 16_024, 10_819, 106_463
        };
        if (n < measured.length) {
            return measured[n];
        }
        return largestHalf(n - 2) * (n % 2 == 0 ? 7 : 6);
    }
}
