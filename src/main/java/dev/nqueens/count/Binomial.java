package dev.nqueens.count;

/**
 * Binomial coefficients and the k-element subsets of {@code 0..m-1} as bit sets in ascending
 * numeric order (the colexicographic order): the {@code i}-th of them is found from the
 * combinatorial number system, the next one by Gosper's hack.
 */
final class Binomial {

    private static final long[][] TABLE = new long[64][64];

    static {
        for (int m = 0; m < 64; m++) {
            TABLE[m][0] = 1;
            for (int k = 1; k <= m; k++) {
                TABLE[m][k] = TABLE[m - 1][k - 1] + TABLE[m - 1][k];
            }
        }
    }

    private Binomial() {}

    /** C(m, k), 0 outside {@code 0 <= k <= m}; exact for m < 64... within a long up to C(63, 31). */
    static long of(int m, int k) {
        if (k < 0 || m < 0 || k > m) {
            return 0;
        }
        return TABLE[m][k];
    }

    /**
     * The {@code index}-th set of {@code k} elements in ascending order: the largest {@code c}
     * with {@code C(c, k) <= index} is its top element, and so on down.
     */
    static int unrank(long index, int k) {
        int set = 0;
        long rest = index;
        for (int j = k; j >= 1; j--) {
            int c = j - 1;
            while (of(c + 1, j) <= rest) {
                c++;
            }
            set |= 1 << c;
            rest -= of(c, j);
        }
        return set;
    }

    /**
     * The next larger set with as many elements (Gosper's hack): the lowest block of ones moves
     * its top bit one place up and the rest of the block back to bit 0.
     */
    static int nextSameCount(int set) {
        int lowest = set & -set;
        int ripple = set + lowest;
        return ripple | ((set ^ ripple) >>> 2) / lowest;
    }
}
