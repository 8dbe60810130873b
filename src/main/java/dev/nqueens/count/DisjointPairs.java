package dev.nqueens.count;

import java.util.Arrays;

/**
 * Counts the pairs (item, pattern), an item from one list of bit sets and a pattern from another,
 * that have no bit in common: the top and bottom halves that make a solution ({@link HalfBoard}).
 * Nearly all pairs share a bit (99.98 % at n = 20), so the count is done in two steps that each
 * avoid looking at most pairs one by one.
 *
 * <p>First a sieve: {@code k} bits of the middle diagonals, the ones both halves occupy most
 * often (neighbours in the middle of a pattern, see {@link HalfBoard}), are cut out of every set,
 * and the sets are sorted by the value of those bits. An item
 * whose cut bits are {@code x} can only match patterns whose cut bits {@code y} avoid {@code x}
 * ({@code x & y == 0}), so whole buckets of patterns are never looked at: each cut bit leaves
 * about three quarters of the pairs, 8 bits about a sixth.
 *
 * <p>Then the pairs of an item group and a pattern bucket are counted 64 patterns at a time,
 * bit-sliced: for each word of 64 patterns and each bit b, a long has bit i set where pattern i
 * has bit b. An item's conflicts with the 64 patterns are the OR of the longs of its set bits;
 * the patterns it matches are the zeros. To read fewer longs, the bits are taken 6 at a time
 * (chunks), each chunk with a table of the 64 ORs of its bits' longs, so an item costs one load
 * per chunk per word (the "four Russians" trick):
 *
 * <pre>
 *   item bits  [ 6 | 6 | 6 | 6 | 6 | 6 ]       word w of a bucket: chunk j, row v =
 *                |   |   ...                     OR of the longs of the bits in v
 *   rejected = t[w][0][v0] | t[w][1][v1] | ... | t[w][5][v5]
 *   matches += 64 - popcount(rejected)          (unused slots of a last word are set in t[w][0][*])
 * </pre>
 *
 * <p>How many bits are cut depends on the number of patterns (buckets of about
 * {@link Layout#patternsPerBucket()} patterns, so that a bucket's tables stay in the first-level
 * cache while its items are counted); it changes the speed, never the count.
 *
 * <p>Not thread-safe; buffers grow to the largest lists seen and are reused.
 */
final class DisjointPairs {

    /** Bits per chunk: a chunk's table has 64 rows. */
    static final int CHUNK = 6;
    private static final int ROWS = 1 << CHUNK;
    private static final int MAX_CUT = 12;

    private final int bits;
    private final int patternsPerBucket;
    /** The bit in the middle of a pattern: the "/" diagonal through the middle of the border. */
    private final int middle;

    private long[] items = new long[1024];
    private long[] patterns = new long[1024];
    private int[] itemStart = new int[(1 << MAX_CUT) + 1];
    private int[] bucketStart = new int[(1 << MAX_CUT) + 1];
    private int[] bucketWord = new int[(1 << MAX_CUT) + 1];
    private long[] table = new long[1 << 14];
    private final long[] slice = new long[64];
    private int stride;

    /**
     * A counter of pairs of {@code bits}-bit sets made of two windows of {@code bits / 2}
     * diagonals each (as {@link HalfBoard} writes them).
     */
    DisjointPairs(int bits, Layout layout) {
        if (bits < 2 || bits > 62 || bits % 2 != 0) {
            throw new IllegalArgumentException("patterns of " + bits + " bits");
        }
        this.bits = bits;
        this.patternsPerBucket = layout.patternsPerBucket();
        this.middle = 2 * ((bits / 2 - 1) / 2);
    }

    /**
     * The pairs of an item of {@code itemSource} in the index ranges {@code itemRanges} (pairs
     * {@code from, to}, {@code itemRangeCount} of them) and a pattern of {@code patternSource} in
     * {@code patternRanges} that share no bit.
     */
    long count(long[] itemSource, int[] itemRanges, int itemRangeCount, long[] patternSource, int[] patternRanges,
            int patternRangeCount) {
        int patternCount = total(patternRanges, patternRangeCount);
        int itemCount = total(itemRanges, itemRangeCount);
        if (patternCount == 0 || itemCount == 0) {
            return 0;
        }
        int cut = cutBits(patternCount);
        // The cut bits: the middle pair of diagonals and their neighbours, cut..cut + k - 1.
        int lowest = Math.max(0, Math.min(bits - cut, middle + 1 - cut / 2));
        int chunks = Math.max(1, (bits - cut + CHUNK - 1) / CHUNK);
        int buckets = 1 << cut;
        sortByCut(patternSource, patternRanges, patternRangeCount, patternCount, lowest, cut, false);
        sortByCut(itemSource, itemRanges, itemRangeCount, itemCount, lowest, cut, true);
        buildTables(buckets, chunks);
        long sum = 0;
        for (int x = 0; x < buckets; x++) {
            if (itemStart[x] == itemStart[x + 1]) {
                continue;
            }
            int avoid = ~x & (buckets - 1);
            // Every subset y of the bits x leaves clear, y = avoid first, down to 0.
            for (int y = avoid;; y = (y - 1) & avoid) {
                if (bucketWord[y] < bucketWord[y + 1]) {
                    sum += countBlock(chunks, itemStart[x], itemStart[x + 1], bucketWord[y], bucketWord[y + 1]);
                }
                if (y == 0) {
                    break;
                }
            }
        }
        return sum;
    }

    /** How many bits to cut: buckets of about {@code patternsPerBucket} patterns, at most {@link #MAX_CUT}. */
    private int cutBits(int patternCount) {
        int cut = 0;
        while (cut < MAX_CUT && cut < bits - 1 && (long) patternsPerBucket << (cut + 1) <= patternCount) {
            cut++;
        }
        return cut;
    }

    private static int total(int[] ranges, int count) {
        int total = 0;
        for (int r = 0; r < count; r++) {
            total += ranges[2 * r + 1] - ranges[2 * r];
        }
        return total;
    }

    /**
     * Copies the sets of the ranges into {@link #items} or {@link #patterns}, ordered by the value
     * of their cut bits {@code lowest .. lowest + cut - 1} (a counting sort) and with those bits
     * taken out, with the start of each value's run in {@link #itemStart} or {@link #bucketStart}.
     */
    private void sortByCut(long[] source, int[] ranges, int rangeCount, int count, int lowest, int cut,
            boolean asItems) {
        int buckets = 1 << cut;
        int[] start = asItems ? itemStart : bucketStart;
        long[] sorted = asItems ? items : patterns;
        if (sorted.length < count) {
            sorted = new long[Math.max(count, sorted.length + sorted.length / 2)];
            if (asItems) {
                items = sorted;
            } else {
                patterns = sorted;
            }
        }
        long below = (1L << lowest) - 1;
        int above = lowest + cut;
        Arrays.fill(start, 0, buckets + 1, 0);
        for (int r = 0; r < rangeCount; r++) {
            for (int i = ranges[2 * r]; i < ranges[2 * r + 1]; i++) {
                start[((int) (source[i] >>> lowest) & (buckets - 1)) + 1]++;
            }
        }
        for (int b = 0; b < buckets; b++) {
            start[b + 1] += start[b];
        }
        // start[b] now counts up as bucket b fills; afterwards it is the start of bucket b + 1.
        for (int r = 0; r < rangeCount; r++) {
            for (int i = ranges[2 * r]; i < ranges[2 * r + 1]; i++) {
                long set = source[i];
                sorted[start[(int) (set >>> lowest) & (buckets - 1)]++] = set & below | set >>> above << lowest;
            }
        }
        System.arraycopy(start, 0, start, 1, buckets);
        start[0] = 0;
    }

    /**
     * Writes each bucket's chunk tables, word by word: the word's 64 patterns turned into one long
     * per bit (a 64×64 bit transpose), then each chunk's 64 ORs.
     */
    private void buildTables(int buckets, int chunks) {
        stride = chunks * ROWS;
        int words = 0;
        for (int b = 0; b < buckets; b++) {
            bucketWord[b] = words;
            words += (bucketStart[b + 1] - bucketStart[b] + 63) / 64;
        }
        bucketWord[buckets] = words;
        if (table.length < (long) words * stride) {
            long length = Math.max((long) words * stride, 2L * table.length);
            table = new long[(int) Math.min(Integer.MAX_VALUE - 8, length)];
        }
        for (int b = 0; b < buckets; b++) {
            for (int w = bucketWord[b], at = bucketStart[b]; w < bucketWord[b + 1]; w++, at += 64) {
                writeWord(w, at, Math.min(64, bucketStart[b + 1] - at), chunks);
            }
        }
    }

    private void writeWord(int word, int first, int count, int chunks) {
        long[] s = slice;
        System.arraycopy(patterns, first, s, 0, count);
        Arrays.fill(s, count, 64, 0L);
        transpose(s);
        long[] t = table;
        // Slots past the last pattern count as conflicts: they are set in every row of chunk 0.
        long unused = count == 64 ? 0 : -1L << count;
        for (int j = 0, base = word * stride; j < chunks; j++, base += ROWS) {
            t[base] = j == 0 ? unused : 0;
            for (int v = 1; v < ROWS; v++) {
                int bit = j * CHUNK + Integer.numberOfTrailingZeros(v);
                t[base + v] = t[base + (v & (v - 1))] | (bit < 64 ? s[bit] : 0);
            }
        }
    }

    /**
     * Transposes the 64×64 bit matrix {@code m} (row i = {@code m[i]}, column j = bit j) in place,
     * by swapping ever smaller off-diagonal blocks (Hacker's Delight 7-3): afterwards {@code m[b]}
     * has bit i set where row i had bit b.
     */
    static void transpose(long[] m) {
        long low = 0x00000000FFFFFFFFL;
        for (int j = 32; j != 0; j >>>= 1, low ^= low << j) {
            for (int b = 0; b < 64; b += 2 * j) {
                for (int k = b; k < b + j; k++) {
                    long t = ((m[k] >>> j) ^ m[k + j]) & low;
                    m[k + j] ^= t;
                    m[k] ^= t << j;
                }
            }
        }
    }

    /** The matches of items {@code from .. to-1} against words {@code wordFrom .. wordTo-1}. */
    private long countBlock(int chunks, int from, int to, int wordFrom, int wordTo) {
        return switch (chunks) {
            case 1, 2, 3, 4 -> countFour(from, to, wordFrom * stride, wordTo * stride);
            case 5 -> countFive(from, to, wordFrom * stride, wordTo * stride);
            case 6 -> countSix(from, to, wordFrom * stride, wordTo * stride);
            case 7 -> countSeven(from, to, wordFrom * stride, wordTo * stride);
            default -> countAny(chunks, from, to, wordFrom * stride, wordTo * stride);
        };
    }

    // The kernels below differ only in the number of chunks: with it fixed, the chunk offsets stay
    // in registers. A chunk past the item's bits reads row 0, which is 0 outside chunk 0.

    private long countFour(int from, int to, int begin, int end) {
        final long[] t = table;
        final long[] it = items;
        final int stride = this.stride;
        long sum = 0;
        for (int i = from; i < to; i++) {
            long x = it[i];
            int o0 = (int) x & 63;
            int o1 = stride > 64 ? 64 + ((int) (x >>> 6) & 63) : 0;
            int o2 = stride > 128 ? 128 + ((int) (x >>> 12) & 63) : 0;
            int o3 = stride > 192 ? 192 + ((int) (x >>> 18) & 63) : 0;
            for (int w = begin; w < end; w += stride) {
                sum += Long.bitCount(~(t[w + o0] | t[w + o1] | t[w + o2] | t[w + o3]));
            }
        }
        return sum;
    }

    private long countFive(int from, int to, int begin, int end) {
        final long[] t = table;
        final long[] it = items;
        long sum = 0;
        for (int i = from; i < to; i++) {
            long x = it[i];
            int o0 = (int) x & 63;
            int o1 = 64 + ((int) (x >>> 6) & 63);
            int o2 = 128 + ((int) (x >>> 12) & 63);
            int o3 = 192 + ((int) (x >>> 18) & 63);
            int o4 = 256 + ((int) (x >>> 24) & 63);
            for (int w = begin; w < end; w += 320) {
                sum += Long.bitCount(~(t[w + o0] | t[w + o1] | t[w + o2] | t[w + o3] | t[w + o4]));
            }
        }
        return sum;
    }

    private long countSix(int from, int to, int begin, int end) {
        final long[] t = table;
        final long[] it = items;
        long sum = 0;
        for (int i = from; i < to; i++) {
            long x = it[i];
            int o0 = (int) x & 63;
            int o1 = 64 + ((int) (x >>> 6) & 63);
            int o2 = 128 + ((int) (x >>> 12) & 63);
            int o3 = 192 + ((int) (x >>> 18) & 63);
            int o4 = 256 + ((int) (x >>> 24) & 63);
            int o5 = 320 + ((int) (x >>> 30) & 63);
            for (int w = begin; w < end; w += 384) {
                sum += Long.bitCount(~(t[w + o0] | t[w + o1] | t[w + o2] | t[w + o3] | t[w + o4] | t[w + o5]));
            }
        }
        return sum;
    }

    private long countSeven(int from, int to, int begin, int end) {
        final long[] t = table;
        final long[] it = items;
        long sum = 0;
        for (int i = from; i < to; i++) {
            long x = it[i];
            int o0 = (int) x & 63;
            int o1 = 64 + ((int) (x >>> 6) & 63);
            int o2 = 128 + ((int) (x >>> 12) & 63);
            int o3 = 192 + ((int) (x >>> 18) & 63);
            int o4 = 256 + ((int) (x >>> 24) & 63);
            int o5 = 320 + ((int) (x >>> 30) & 63);
            int o6 = 384 + ((int) (x >>> 36) & 63);
            for (int w = begin; w < end; w += 448) {
                sum += Long.bitCount(~(t[w + o0] | t[w + o1] | t[w + o2] | t[w + o3] | t[w + o4] | t[w + o5]
                        | t[w + o6]));
            }
        }
        return sum;
    }

    private long countAny(int chunks, int from, int to, int begin, int end) {
        final long[] t = table;
        final int stride = this.stride;
        int[] offsets = new int[chunks];
        long sum = 0;
        for (int i = from; i < to; i++) {
            long x = items[i];
            for (int j = 0; j < chunks; j++) {
                offsets[j] = j * ROWS + (int) (x >>> (j * CHUNK) & 63);
            }
            for (int w = begin; w < end; w += stride) {
                long rejected = 0;
                for (int j = 0; j < chunks; j++) {
                    rejected |= t[w + offsets[j]];
                }
                sum += Long.bitCount(~rejected);
            }
        }
        return sum;
    }
}
