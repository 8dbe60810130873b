package dev.nqueens.symmetry;

import java.util.Arrays;

/**
 * The class ordinal of each representative seen so far in a size's enumeration. Solutions come in
 * lexicographic order and a class's representative is its smallest member, so representatives
 * come before the rest of their class and in class order: each is kept as its rank among the
 * permutations of n (its Lehmer code, which orders permutations lexicographically), appended to a
 * sorted array, and a later member finds its class by binary search: first among every 64th code
 * (an array a 64th of the size, which stays in the processor's caches), then within one block of
 * 64. Memory: one {@code long} per class, never a solution.
 */
public final class ClassNumbers {

    /** The largest n whose permutations' ranks fit a long (20! < 2^63). */
    public static final int MAX_SIZE = 20;

    private static final int BLOCK_BITS = 6;

    private long[] codes;
    private int size;
    /** {@code codes[i << BLOCK_BITS]} for each whole or started block. */
    private long[] firstOfBlock;

    /**
     * @param expected the number of classes expected (the array's first capacity; 0 if unknown)
     * @throws IllegalArgumentException if {@code n} is above {@value #MAX_SIZE}
     */
    public ClassNumbers(int n, long expected) {
        if (n > MAX_SIZE) {
            throw new IllegalArgumentException(
                    "storing every solution of n=" + n + " is not supported (at most n=" + MAX_SIZE + ")");
        }
        codes = new long[(int) Math.max(16, Math.min(expected + 1, Integer.MAX_VALUE - 8))];
        firstOfBlock = new long[(codes.length >> BLOCK_BITS) + 1];
    }

    /** The number of classes so far. */
    public long count() {
        return size;
    }

    /**
     * Numbers the next class, whose representative has these 0-based columns.
     *
     * @return its class ordinal
     * @throws IllegalStateException if it does not come after the classes numbered so far
     */
    public long add(int[] representative) {
        long code = code(representative);
        if (size > 0 && code <= codes[size - 1]) {
            throw new IllegalStateException("representatives out of lexicographic order at class " + (size + 1));
        }
        append(code);
        if (((size - 1) & ((1 << BLOCK_BITS) - 1)) == 0) {
            firstOfBlock[(size - 1) >> BLOCK_BITS] = code;
        }
        return size;
    }

    private void append(long code) {
        if (size == codes.length) {
            codes = Arrays.copyOf(codes, codes.length + (codes.length >> 1));
            firstOfBlock = Arrays.copyOf(firstOfBlock, (codes.length >> BLOCK_BITS) + 1);
        }
        codes[size++] = code;
    }

    /**
     * Adds representatives read back from the database in any order (a resumed size), then sorts them.
     */
    public void addUnordered(int[] representative) {
        append(code(representative));
    }

    /** Puts what {@link #addUnordered} added in class order. */
    public void sort() {
        Arrays.sort(codes, 0, size);
        for (int i = 0; i < size; i += 1 << BLOCK_BITS) {
            firstOfBlock[i >> BLOCK_BITS] = codes[i];
        }
    }

    /**
     * The class ordinal of the representative with these 0-based columns.
     *
     * @throws IllegalStateException if it has not been numbered
     */
    public long classOf(int[] representative) {
        long found = find(representative);
        if (found == 0) {
            throw new IllegalStateException("no class numbered for representative " + Arrays.toString(representative));
        }
        return found;
    }

    /** The class ordinal of the representative with these 0-based columns, or 0 if it has none. */
    public long find(int[] representative) {
        if (size == 0) {
            return 0;
        }
        long code = code(representative);
        int blocks = ((size - 1) >> BLOCK_BITS) + 1;
        int block = Arrays.binarySearch(firstOfBlock, 0, blocks, code);
        if (block >= 0) {
            return ((long) block << BLOCK_BITS) + 1;
        }
        // Not a block's first code: it is in the block before the insertion point, if anywhere.
        block = -block - 2;
        if (block < 0) {
            return 0;
        }
        int from = block << BLOCK_BITS;
        int index = Arrays.binarySearch(codes, from, Math.min(size, from + (1 << BLOCK_BITS)), code);
        return index < 0 ? 0 : index + 1L;
    }

    /**
     * The rank of a permutation of 0..n-1 among all of them in lexicographic order: for each row,
     * how many columns not used above are smaller than its own, as digits of base n, n-1, ..., 1.
     */
    public static long code(int[] columns) {
        long code = 0;
        int used = 0;
        for (int row = 0; row < columns.length; row++) {
            int bit = 1 << columns[row];
            // The unused columns left of this one: the bits below it, minus those already used.
            code = code * (columns.length - row) + Integer.bitCount((bit - 1) & ~used);
            used |= bit;
        }
        return code;
    }
}
