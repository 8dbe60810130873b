package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class DisjointPairsTests {

    /** Sets with about a third of their bits set, so that a few percent of the pairs are disjoint. */
    private static long[] randomSets(Random random, int count, int bits) {
        long[] sets = new long[count];
        for (int i = 0; i < count; i++) {
            long set = 0;
            for (int b = 0; b < bits; b++) {
                if (random.nextInt(3) == 0) {
                    set |= 1L << b;
                }
            }
            sets[i] = set;
        }
        return sets;
    }

    private static long bruteForce(long[] items, int[] itemRanges, long[] patterns, int[] patternRanges) {
        long count = 0;
        for (int r = 0; r < itemRanges.length; r += 2) {
            for (int i = itemRanges[r]; i < itemRanges[r + 1]; i++) {
                for (int s = 0; s < patternRanges.length; s += 2) {
                    for (int p = patternRanges[s]; p < patternRanges[s + 1]; p++) {
                        if ((items[i] & patterns[p]) == 0) {
                            count++;
                        }
                    }
                }
            }
        }
        return count;
    }

    /**
     * Every sieve depth (buckets of one pattern to buckets of all), every chunk count (patterns of
     * 2 to 46 bits) and ranges that skip parts of the lists count what comparing every pair counts.
     */
    @Test
    void countsWhatComparingEveryPairCounts() {
        Random random = new Random(24);
        for (int bits : new int[] {2, 10, 22, 30, 34, 38, 42, 46}) {
            long[] items = randomSets(random, 700, bits);
            long[] patterns = randomSets(random, 900, bits);
            int[] itemRanges = {0, 300, 350, 700};
            int[] patternRanges = {10, 20, 40, 900};
            long expected = bruteForce(items, itemRanges, patterns, patternRanges);
            for (int perBucket : new int[] {1, 16, 256, 1 << 30}) {
                DisjointPairs pairs = new DisjointPairs(
                        bits, Layout.forCaches(32 << 10, 1 << 20).withBuckets(perBucket));
                assertEquals(
                        expected,
                        pairs.count(items, itemRanges, 2, patterns, patternRanges, 2),
                        bits + " bits, buckets of " + perBucket);
                // Buffers are reused: a second count of other lists is as exact.
                assertEquals(
                        bruteForce(patterns, patternRanges, items, itemRanges),
                        pairs.count(patterns, patternRanges, 2, items, itemRanges, 2),
                        "roles swapped");
            }
        }
    }

    @Test
    void countsNothingForEmptyLists() {
        DisjointPairs pairs = new DisjointPairs(38, Layout.forCaches(32 << 10, 1 << 20));
        long[] sets = {1, 2, 4};
        assertEquals(0, pairs.count(sets, new int[] {0, 0}, 1, sets, new int[] {0, 3}, 1));
        assertEquals(0, pairs.count(sets, new int[] {0, 3}, 1, sets, new int[0], 0));
        assertEquals(6, pairs.count(sets, new int[] {0, 3}, 1, sets, new int[] {0, 3}, 1));
    }

    @Test
    void transposesBitMatrices() {
        Random random = new Random(7);
        long[] m = new long[64];
        for (int i = 0; i < 64; i++) {
            m[i] = random.nextLong();
        }
        long[] t = m.clone();
        DisjointPairs.transpose(t);
        for (int i = 0; i < 64; i++) {
            for (int j = 0; j < 64; j++) {
                assertEquals(m[i] >>> j & 1, t[j] >>> i & 1, i + "," + j);
            }
        }
    }
}
