package dev.nqueens.count;

import java.util.Arrays;

/**
 * Every way to fill the last {@code k} free rows of a board below a constellation, built once and
 * then looked up by each partial placement of the rows above them: the meet-in-the-middle half of
 * the counting engine.
 *
 * <p>An entry is one placement of queens in the table rows that the constellation's bottom, left
 * and right queens do not attack, described by what the rows above need to know to accept it: the
 * set of columns it uses and the diagonals it occupies, as seen from the first table row. A queen
 * in column {@code c} of the table row {@code o} rows below the first lies on the "/" diagonal that
 * crosses the first table row at column {@code c + o} and on the "\\" diagonal that crosses it at
 * {@code c - o}. A partial placement above is completed by an entry exactly when the entry uses the
 * columns it left free and none of the entry's diagonals is one of its own diagonals at the first
 * table row. The 2n diagonals an entry can occupy are the bit positions of its <em>key</em>: "/"
 * diagonals at {@code 0..n-1}, "\\" diagonals at {@code n..2n-1}.
 *
 * <p>The table is bit-sliced: the entries of one column set are cut into words of 64, and each word
 * is stored as a block of {@code 1 + 2n} longs: first the word's unused bits (a word that is not
 * full), then for each diagonal the bit set of the word's entries on it. A lookup ORs the blocks'
 * longs of the diagonals the placement above holds (about 15 at n = 20) and counts the bits left
 * clear: 64 entries per OR, where comparing entry by entry took two ANDs per entry in loops too short
 * for the JIT to vectorise (measured 0.3 to 0.6 ns per entry, about 25 ns per lookup at n = 20).
 * The column sets of {@code k} columns are numbered densely ({@link SubsetRank}), so the index of
 * the blocks has C(n-2, k) + 1 ints, not 2^(n-2).
 *
 * <p>The table depends on the constellation's bottom, left and right queens only (the top queen's
 * diagonals are added to the lookup key), so one table serves every constellation that shares
 * them.
 *
 * <p>Not thread-safe: one per {@link InteriorSearch}.
 */
final class BottomTable {

    /** The largest board size: a key of 2n diagonals and a column-set rank share a long. */
    static final int MAX_SIZE = 22;
    /** Bits of an enumerated entry below its column set's rank: its key. */
    private static final int KEY_BITS = 2 * MAX_SIZE;
    private static final long KEY_MASK = (1L << KEY_BITS) - 1;
    /**
     * Words of at least this many entries are written by a bit-matrix transpose (about 1,300
     * operations for any word), smaller ones entry by entry (about 5 per diagonal, 2k per entry).
     */
    private static final int TRANSPOSE_FROM = 20;

    private final int n;
    private final int full;
    /** Longs per word of 64 entries: the unused bits, then one bit set per diagonal. */
    private final int block;
    private final SubsetRank rank;
    private final int maxEntries;
    private final int[] free;
    private final int[] columns;
    private final int[] leftDiagonals;
    private final int[] rightDiagonals;
    private final int[] leftSeen;
    private final int[] rightSeen;
    /** The blocks of column set (of rank) {@code r} are {@code words[start[r] .. start[r + 1] - 1]}. */
    private int[] start = new int[0];
    private long[] words = new long[0];
    private long[] sorted = new long[0];
    private final long[] transposed = new long[64];
    private int entries;
    private long key = -1;

    /**
     * A table for boards of size {@code n} that gives up (see {@link #build}) above
     * {@code maxEntries} entries.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 4..}{@link #MAX_SIZE} or
     *     {@code maxEntries} is not positive
     */
    BottomTable(int n, int maxEntries) {
        if (n < 4 || n > MAX_SIZE) {
            throw new IllegalArgumentException("board size " + n + " is outside 4.." + MAX_SIZE);
        }
        if (maxEntries < 1) {
            throw new IllegalArgumentException("a table of at most " + maxEntries + " entries");
        }
        this.n = n;
        this.full = (1 << n) - 1;
        this.block = 1 + 2 * n;
        this.rank = new SubsetRank(n - 2);
        this.maxEntries = maxEntries;
        this.free = new int[n];
        this.columns = new int[n];
        this.leftDiagonals = new int[n];
        this.rightDiagonals = new int[n];
        this.leftSeen = new int[n];
        this.rightSeen = new int[n];
    }

    /** The key of the table last built, or -1. */
    long key() {
        return key;
    }

    /** The entries of the table last built (0 if it was too large). */
    int entries() {
        return entries;
    }

    /** The bytes the table and its build buffers hold. */
    long bytes() {
        return 8L * (words.length + sorted.length) + 4L * start.length;
    }

    /**
     * Fills the table with the placements of {@code rows} rows.
     *
     * @param key what the caller identifies this table by, returned by {@link #key()}
     * @param rows how many rows the table covers, at least 2
     * @param offsets for each table row, how far below the first table row it lies (0 first)
     * @param attacked for each table row, the columns the fixed queens attack there, border
     *     columns included
     * @return false, leaving the table empty, if it would have more than the maximum number of
     *     entries
     */
    boolean build(long key, int rows, int[] offsets, int[] attacked) {
        this.key = key;
        int sets = SubsetRank.count(n - 2, rows);
        if (start.length < sets + 1) {
            start = new int[sets + 1];
        }
        Arrays.fill(start, 0, sets + 1, 0);
        // Twice through the placements: first to count them per column set, then to put each in
        // its set's place (no second copy of the entries in memory).
        int count = enumerate(rows, offsets, attacked, false);
        if (count < 0) {
            entries = 0;
            Arrays.fill(start, 0, sets + 1, 0);
            return false;
        }
        entries = count;
        for (int r = 0; r < sets; r++) {
            start[r + 1] += start[r];
        }
        if (sorted.length < count) {
            sorted = new long[count];
        }
        enumerate(rows, offsets, attacked, true);
        slice(count, sets);
        return true;
    }

    /**
     * Runs through every placement of the table rows: counts them per column set in
     * {@link #start} ({@code start[rank + 1]}), or, with {@code place}, writes each into
     * {@link #sorted} at its set's cursor {@code start[rank]}, as its set's rank above its key.
     * Returns how many there are, or -1 (when counting) if more than the maximum.
     */
    private int enumerate(int rows, int[] offsets, int[] attacked, boolean place) {
        int count = 0;
        int last = rows - 1;
        int lastOffset = offsets[last];
        int t = 0;
        free[0] = ~attacked[0] & full;
        columns[0] = 0;
        leftDiagonals[0] = 0;
        rightDiagonals[0] = 0;
        leftSeen[0] = 0;
        rightSeen[0] = 0;
        while (true) {
            int f = free[t];
            if (f == 0) {
                if (t == 0) {
                    return count;
                }
                t--;
                continue;
            }
            int bit = f & -f;
            free[t] = f ^ bit;
            int nextColumns = columns[t] | bit;
            int nextLeftSeen = leftSeen[t] | bit << offsets[t];
            int nextRightSeen = rightSeen[t] | bit >>> offsets[t];
            int step = offsets[t + 1] - offsets[t];
            int nextLeft = (leftDiagonals[t] | bit) >>> step;
            int nextRight = (rightDiagonals[t] | bit) << step;
            int nextFree = ~(nextColumns | nextLeft | nextRight | attacked[t + 1]) & full;
            if (t + 1 == last) {
                // Every free square of the last row completes an entry: no stack level for it.
                count += Integer.bitCount(nextFree);
                if (count > maxEntries) {
                    return -1;
                }
                while (nextFree != 0) {
                    int square = nextFree & -nextFree;
                    nextFree ^= square;
                    // Column 0 is a border column, never in a set: the rank drops it.
                    int set = rank.of((nextColumns | square) >>> 1);
                    if (place) {
                        long left = (nextLeftSeen | square << lastOffset) & full;
                        long right = nextRightSeen | square >>> lastOffset;
                        sorted[start[set]++] = (long) set << KEY_BITS | right << n | left;
                    } else {
                        start[set + 1]++;
                    }
                }
                continue;
            }
            if (nextFree != 0) {
                t++;
                free[t] = nextFree;
                columns[t] = nextColumns;
                leftDiagonals[t] = nextLeft;
                rightDiagonals[t] = nextRight;
                leftSeen[t] = nextLeftSeen;
                rightSeen[t] = nextRightSeen;
            }
        }
    }

    /**
     * Writes each set's words from the entries in {@link #sorted}: the unused bits of its last
     * word, and each entry's bit in the bit set of each of its diagonals.
     */
    private void slice(int count, int sets) {
        int[] first = start;
        // first[r] is now the end of set r's entries, i.e. the start of set r + 1's.
        int length = 0;
        int from = 0;
        for (int r = 0; r < sets; r++) {
            int to = first[r];
            first[r] = length;
            length += (to - from + 63) / 64 * block;
            from = to;
        }
        first[sets] = length;
        if (words.length < length) {
            words = new long[length + length / 8];
        }
        long[] word = transposed;
        int entry = 0;
        for (int r = 0; r < sets; r++) {
            int at = first[r];
            int end = first[r + 1];
            for (; at < end; at += block) {
                // The next (up to) 64 entries of set r: entry i of the word is row i of a bit matrix.
                int inWord = 0;
                while (inWord < 64 && entry < count && (int) (sorted[entry] >>> KEY_BITS) == r) {
                    word[inWord++] = sorted[entry++] & KEY_MASK;
                }
                words[at] = inWord == 64 ? 0L : -1L << inWord;
                if (inWord < TRANSPOSE_FROM) {
                    // A few entries: set each entry's bit on each of its diagonals.
                    Arrays.fill(words, at + 1, at + block, 0L);
                    for (int i = 0; i < inWord; i++) {
                        for (long diagonals = word[i]; diagonals != 0; diagonals &= diagonals - 1) {
                            words[at + 1 + Long.numberOfTrailingZeros(diagonals)] |= 1L << i;
                        }
                    }
                } else {
                    Arrays.fill(word, inWord, 64, 0L);
                    transpose(word);
                    // After the transpose, word[d] holds the word's entries on diagonal d.
                    System.arraycopy(word, 0, words, at + 1, block - 1);
                }
            }
        }
    }

    /**
     * Transposes the 64x64 bit matrix {@code m} (row i = {@code m[i]}, column j = bit j) in place,
     * by swapping ever smaller off-diagonal blocks: halves of 32, then 16, ... 1 bits (Hacker's
     * Delight, 7-3), 6 rounds of 32 swaps instead of a loop over every set bit.
     */
    static void transpose(long[] m) {
        long low = 0x00000000FFFFFFFFL;
        for (int j = 32; j != 0; j >>>= 1, low ^= low << j) {
            for (int b = 0; b < 64; b += 2 * j) {
                for (int k = b; k < b + j; k++) {
                    // Bits of row k whose column has bit j set trade places with bits of row k + j
                    // whose column has it clear.
                    long t = ((m[k] >>> j) ^ m[k + j]) & low;
                    m[k + j] ^= t;
                    m[k] ^= t << j;
                }
            }
        }
    }

    /**
     * How many entries complete a partial placement that left exactly the columns
     * {@code freeColumns} unused and holds the diagonals {@code left} ("/") and {@code right}
     * ("\\") at the first table row; {@code freeColumns} must hold as many columns as the table
     * has rows.
     */
    int count(int freeColumns, int left, int right) {
        // Bit 0 is a border column, never free: the rank drops it.
        int r = rank.of(freeColumns >>> 1);
        int from = start[r];
        int to = start[r + 1];
        long held = left | (long) right << n;
        int accepted = 0;
        for (int b = from; b < to; b += block) {
            long rejected = words[b];
            // held & (held - 1) drops the lowest diagonal: one OR per diagonal the placement holds.
            for (long diagonals = held; diagonals != 0; diagonals &= diagonals - 1) {
                rejected |= words[b + 1 + Long.numberOfTrailingZeros(diagonals)];
            }
            accepted += Long.bitCount(~rejected);
        }
        return accepted;
    }
}
