package dev.nqueens.count;

/**
 * The rank of a set of {@code k} elements of {@code 0..width-1} among all sets of {@code k}
 * elements, in the combinatorial number system: the set with elements {@code p0 < p1 < ... }
 * has rank {@code C(p0, 1) + C(p1, 2) + ...}, so the sets of {@code k} elements get the dense
 * ranks {@code 0 .. C(width, k) - 1}. Two small tables split the set into a low and a high half:
 * the low half's share of the sum is looked up directly, the high half's by how many elements the
 * low half holds (which shifts the second argument of {@code C}).
 */
final class SubsetRank {

    private final int lowBits;
    private final int lowMask;
    private final int[] lowRank;
    /** {@code highRank[below << highBits | high]}: the high half's share with {@code below} elements under it. */
    private final int[] highRank;
    private final int highBits;

    /**
     * Ranks for subsets of {@code 0..width-1}.
     *
     * @throws IllegalArgumentException if {@code width} is outside {@code 1..30}
     */
    SubsetRank(int width) {
        if (width < 1 || width > 30) {
            throw new IllegalArgumentException("subsets of " + width + " elements are not ranked");
        }
        this.lowBits = width / 2;
        this.highBits = width - lowBits;
        this.lowMask = (1 << lowBits) - 1;
        this.lowRank = new int[1 << lowBits];
        for (int low = 0; low < lowRank.length; low++) {
            lowRank[low] = share(low, 0, 0);
        }
        this.highRank = new int[(lowBits + 1) << highBits];
        for (int below = 0; below <= lowBits; below++) {
            for (int high = 0; high < 1 << highBits; high++) {
                highRank[below << highBits | high] = share(high, lowBits, below);
            }
        }
    }

    /** The rank of {@code set} among the sets with as many elements. */
    int of(int set) {
        int low = set & lowMask;
        return lowRank[low] + highRank[Integer.bitCount(low) << highBits | set >>> lowBits];
    }

    /** The number of sets of {@code k} elements of {@code 0..width-1}: C(width, k). */
    static int count(int width, int k) {
        return (int) binomial(width, k);
    }

    /** The sum of C(offset + p, below + i + 1) over the i-th element p of {@code bits}. */
    private static int share(int bits, int offset, int below) {
        long sum = 0;
        int i = below;
        for (int b = bits; b != 0; b &= b - 1) {
            sum += binomial(offset + Integer.numberOfTrailingZeros(b), i + 1);
            i++;
        }
        return (int) sum;
    }

    private static long binomial(int n, int k) {
        if (k < 0 || k > n) {
            return 0;
        }
        long c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }
}
