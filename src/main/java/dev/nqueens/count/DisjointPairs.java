package dev.nqueens.count;

import java.util.Arrays;

/**
 * Counts the pairs (item, pattern), an item from one list of bit sets and a pattern from another,
 * that have no bit in common: the top and bottom halves that make a solution ({@link HalfBoard}).
 * Nearly all pairs share a bit (docs/engine.md), so the count is done in two steps that each
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
 * the patterns it matches are the zeros. To read fewer longs, the bits are taken {@link #CHUNK}
 * at a time (chunks), each chunk with a table of the ORs of its bits' longs for each value of the
 * chunk, so an item costs one load per chunk per word (the "four Russians" trick):
 *
 * <pre>
 *   item bits  [ chunk 0 | chunk 1 | ... ]     word w of a bucket: chunk j, row v =
 *                  |         |                   OR of the longs of the bits in v
 *   rejected = t[w][0][v0] | t[w][1][v1] | ...
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

    /** Bits per chunk: a chunk's table has 256 rows. */
    static final int CHUNK = 8;

    private static final int ROWS = 1 << CHUNK;
    private static final int MAX_CUT = 12;

    private final int bits;
    private final int patternsPerBucket;
    private final boolean twoWords;
    /** The bit in the middle of a pattern: the "/" diagonal through the middle of the border. */
    private final int middle;

    private long[] items = new long[1024];
    private long[] patterns = new long[1024];
    private int[] itemStart = new int[(1 << MAX_CUT) + 1];
    private int[] bucketStart = new int[(1 << MAX_CUT) + 1];
    private int[] bucketWord = new int[(1 << MAX_CUT) + 1];
    private long[] table = new long[1 << 14];
    /** A word's 64 patterns, then (transposed) its longs per bit; spare rows for a chunk past the last bit. */
    private final long[] slice = new long[64 + CHUNK];

    private int stride;
    private final long[] lowRows = new long[16];

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
        this.twoWords = layout.wordsPerPass() == 2;
        this.middle = 2 * ((bits / 2 - 1) / 2);
    }

    /**
     * The pairs of an item of {@code itemSource} in the index ranges {@code itemRanges} (pairs
     * {@code from, to}, {@code itemRangeCount} of them) and a pattern of {@code patternSource} in
     * {@code patternRanges} that share no bit.
     */
    long count(
            long[] itemSource,
            int[] itemRanges,
            int itemRangeCount,
            long[] patternSource,
            int[] patternRanges,
            int patternRangeCount) {
        int patternCount = total(patternRanges, patternRangeCount);
        int itemCount = total(itemRanges, itemRangeCount);
        if (patternCount == 0 || itemCount == 0) {
            return 0;
        }
        if (itemCount < patternCount) {
            // Disjointness is symmetric: the smaller list is bit-sliced, so fewer tables are built.
            return count(patternSource, patternRanges, patternRangeCount, itemSource, itemRanges, itemRangeCount);
        }
        int cut = cutBits(patternCount);
        // The cut bits: the middle pair of diagonals and their neighbours, cut..cut + k - 1.
        int lowest = Math.max(0, Math.min(bits - cut, middle + 1 - cut / 2));
        // At least 4 chunks: the 4-chunk kernel copies whole words (a missing chunk's rows are 0).
        int chunks = Math.max(4, (bits - cut + CHUNK - 1) / CHUNK);
        int buckets = 1 << cut;
        sortByCut(patternSource, patternRanges, patternRangeCount, patternCount, lowest, cut, false);
        sortByCut(itemSource, itemRanges, itemRangeCount, itemCount, lowest, cut, true);
        buildTables(buckets, chunks);
        long sum = 0;
        for (int y = 0; y < buckets; y++) {
            int avoid = ~y & (buckets - 1);
            int word = bucketWord[y];
            if (chunks == 4 && twoWords) {
                // Two words at a time: an item's chunk offsets serve both.
                for (; word + 1 < bucketWord[y + 1]; word += 2) {
                    sum += countFourTwice(word, avoid);
                }
            }
            for (; word < bucketWord[y + 1]; word++) {
                sum += switch (chunks) {
                    case 4 -> countFour(word, avoid);
                    case 5 -> countFive(word, avoid);
                    default -> countAny(chunks, word, avoid);
                };
            }
        }
        return sum;
    }

    /**
     * How many bits to cut: buckets of about {@code patternsPerBucket} patterns, or more bits if
     * that leaves no more than 32 for 4 chunks while buckets keep at least 32 patterns (the
     * 4-chunk kernel, two words at a time, is a third cheaper than 5 chunks); at most
     * {@link #MAX_CUT}.
     */
    private int cutBits(int patternCount) {
        int cut = 0;
        while (cut < MAX_CUT && cut < bits - 1 && (long) patternsPerBucket << (cut + 1) <= patternCount) {
            cut++;
        }
        int forFourChunks = bits - 4 * CHUNK;
        if (cut < forFourChunks && forFourChunks <= MAX_CUT && 32L << forFourChunks <= patternCount) {
            cut = forFourChunks;
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
    private void sortByCut(
            long[] source, int[] ranges, int rangeCount, int count, int lowest, int cut, boolean asItems) {
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
        if (cut == 0) {
            int at = 0;
            for (int r = 0; r < rangeCount; r++) {
                int length = ranges[2 * r + 1] - ranges[2 * r];
                System.arraycopy(source, ranges[2 * r], sorted, at, length);
                at += length;
            }
            start[0] = 0;
            start[1] = count;
            return;
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
     * per bit (a 64×64 bit transpose), then each chunk's table of {@link #ROWS} ORs.
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
        long[] low = lowRows;
        for (int j = 0, base = word * stride; j < chunks; j++, base += ROWS) {
            int bit = j * CHUNK;
            fillSixteen(low, j == 0 ? unused : 0, s[bit], s[bit + 1], s[bit + 2], s[bit + 3]);
            long b4 = s[bit + 4];
            long b5 = s[bit + 5];
            long b6 = s[bit + 6];
            long b7 = s[bit + 7];
            for (int high = 0; high < 16; high++) {
                long h = ((high & 1) != 0 ? b4 : 0)
                        | ((high & 2) != 0 ? b5 : 0)
                        | ((high & 4) != 0 ? b6 : 0)
                        | ((high & 8) != 0 ? b7 : 0);
                int at = base + 16 * high;
                for (int i = 0; i < 16; i++) {
                    t[at + i] = low[i] | h;
                }
            }
        }
    }

    /** {@code low[v]} = the OR of {@code unused} and the {@code b_i} whose bit i is set in v. */
    private static void fillSixteen(long[] low, long unused, long b0, long b1, long b2, long b3) {
        low[0] = unused;
        low[1] = unused | b0;
        low[2] = unused | b1;
        low[3] = low[1] | b1;
        for (int i = 0; i < 4; i++) {
            low[4 + i] = low[i] | b2;
        }
        for (int i = 0; i < 8; i++) {
            low[8 + i] = low[i] | b3;
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

    // One word of a bucket against the items of every group x that avoids the bucket's cut bits
    // (x a subset of avoid, from avoid down to 0). The kernels differ only in the number of chunks,
    // so that no loop runs over the chunks; a chunk past the item's bits reads row 0, which is 0
    // outside chunk 0. The word's tables are copied into an array allocated here, whose length the
    // JIT then knows: an index 256 j + (item & 255) is within it, so the loads need no bounds check
    // (and a copy of the whole array spares its zeroing).

    private long countFour(int word, int avoid) {
        long[] t = new long[4 * ROWS];
        System.arraycopy(table, word * stride, t, 0, 4 * ROWS);
        final long[] it = items;
        long sum = 0;
        for (int x = avoid; ; x = (x - 1) & avoid) {
            for (int i = itemStart[x], to = itemStart[x + 1]; i < to; i++) {
                long item = it[i];
                long rejected = t[(int) item & 255];
                item >>>= 8;
                rejected |= t[256 + ((int) item & 255)];
                item >>>= 8;
                rejected |= t[512 + ((int) item & 255)];
                item >>>= 8;
                rejected |= t[768 + ((int) item & 255)];
                sum += Long.bitCount(~rejected);
            }
            if (x == 0) {
                return sum;
            }
        }
    }

    /** {@link #countFour} for words {@code word} and {@code word + 1} in one pass over the items. */
    private long countFourTwice(int word, int avoid) {
        long[] t = new long[8 * ROWS];
        System.arraycopy(table, word * stride, t, 0, 8 * ROWS);
        final long[] it = items;
        long sum = 0;
        for (int x = avoid; ; x = (x - 1) & avoid) {
            for (int i = itemStart[x], to = itemStart[x + 1]; i < to; i++) {
                long item = it[i];
                int v0 = (int) item & 255;
                int v1 = (int) (item >>> 8) & 255;
                int v2 = (int) (item >>> 16) & 255;
                int v3 = (int) (item >>> 24) & 255;
                long first = t[v0] | t[256 + v1] | t[512 + v2] | t[768 + v3];
                long second = t[1024 + v0] | t[1280 + v1] | t[1536 + v2] | t[1792 + v3];
                sum += Long.bitCount(~first) + Long.bitCount(~second);
            }
            if (x == 0) {
                return sum;
            }
        }
    }

    private long countFive(int word, int avoid) {
        long[] t = new long[5 * ROWS];
        System.arraycopy(table, word * stride, t, 0, 5 * ROWS);
        final long[] it = items;
        long sum = 0;
        for (int x = avoid; ; x = (x - 1) & avoid) {
            for (int i = itemStart[x], to = itemStart[x + 1]; i < to; i++) {
                long item = it[i];
                long rejected = t[(int) item & 255];
                item >>>= 8;
                rejected |= t[256 + ((int) item & 255)];
                item >>>= 8;
                rejected |= t[512 + ((int) item & 255)];
                item >>>= 8;
                rejected |= t[768 + ((int) item & 255)];
                item >>>= 8;
                rejected |= t[1024 + ((int) item & 255)];
                sum += Long.bitCount(~rejected);
            }
            if (x == 0) {
                return sum;
            }
        }
    }

    private long countAny(int chunks, int word, int avoid) {
        final long[] t = table;
        final int base = word * stride;
        long sum = 0;
        for (int x = avoid; ; x = (x - 1) & avoid) {
            for (int i = itemStart[x], to = itemStart[x + 1]; i < to; i++) {
                long item = items[i];
                long rejected = 0;
                for (int j = 0; j < chunks; j++, item >>>= CHUNK) {
                    rejected |= t[base + j * ROWS + ((int) item & (ROWS - 1))];
                }
                sum += Long.bitCount(~rejected);
            }
            if (x == 0) {
                return sum;
            }
        }
    }
}
