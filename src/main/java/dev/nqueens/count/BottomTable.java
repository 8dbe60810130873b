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
 * full), then for each diagonal the bit set of the word's entries on it. A placement above is
 * counted by ORing the bit sets of the diagonals it holds (about 15 at n = 20) and counting the
 * bits left clear: 64 entries per OR, where comparing entry by entry took two ANDs per entry in
 * loops too short for the JIT to vectorise (0.3 to 0.6 ns per entry measured, about 25 ns per
 * lookup at n = 20). The column sets of {@code k} columns are numbered densely
 * ({@link SubsetRank}), so the index of the blocks has C(n-2, k) + 1 ints, not 2^(n-2).
 *
 * <p>Placements are not counted one by one as the search finds them ({@link #add}) but in batches:
 * they wait in partitions by column set, and a full partition is sorted by set and counted set by
 * set. A set's words are then read once for all its waiting placements (dozens at n = 20),
 * from the cache, whatever the size of the table: the search finds placements in an order that
 * jumps between column sets, and looked up one by one they read the table at random. For a set
 * with many waiting placements the words are first turned into chunk tables (see
 * {@link #countRun}): 11 loads per word and placement instead of an OR loop over its diagonals.
 * At n = 20 (7 table rows) that took 20 s where looking up one by one took 30 s, and where the
 * previous engine, comparing entry by entry, took 1.5 times longer still.
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
    /** The most column sets per partition of waiting placements (their rank's low bits share a long with a key). */
    static final int MAX_SETS_PER_PARTITION = 1 << 12;
    /** How many placements wait at most, in all partitions together (8 bytes each: 32 MB; 1 M took 7% longer at n = 20). */
    private static final int WAITING = 1 << 22;
    private static final int MAX_PARTITION_CAPACITY = 1 << 16;
    /** Diagonals per chunk of a chunk table: 16 ORs per chunk, one load per chunk per lookup. */
    private static final int CHUNK_BITS = 4;
    private static final int CHUNK_COUNT = (KEY_BITS + CHUNK_BITS - 1) / CHUNK_BITS;
    private static final int CHUNK_STRIDE = CHUNK_COUNT << CHUNK_BITS;
    /**
     * From this many placements of one column set on, a flush counts them with chunk tables
     * (built for that set, about 350 operations per word), below it by ORing the diagonals' bit
     * sets one by one (about 60 operations per word and placement).
     */
    private static final int CHUNKS_FROM = 8;

    /** {@link #enumerate}: count per column set, and keep each placement in {@link #found}. */
    private static final int ONCE = 0;
    /** {@link #enumerate}: count per column set only. */
    private static final int COUNT = 1;
    /** {@link #enumerate}: put each placement in its column set's place in {@link #sorted}. */
    private static final int PLACE = 2;
    /** What {@link #enumerate} returns for more than the maximum entries. */
    private static final int OVER_MAX = -1;
    /** What {@link #enumerate} returns for more entries than {@link #found} may hold. */
    private static final int OVER_ONCE = -2;

    private final int n;
    private final int full;
    /** Longs per word of 64 entries: the unused bits, then one bit set per diagonal. */
    private final int block;
    private final SubsetRank rank;
    private final int maxEntries;
    /**
     * A table of up to this many entries (a quarter of the largest) is enumerated once, into
     * {@link #found}; a larger one twice (see {@link #build}). Bounds the extra buffer at 16 MB
     * per table with the host's largest tables of 8 M entries.
     */
    private final int onceUpTo;
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
    /** The entries of a table enumerated once, in the order found (up to {@link #onceUpTo}). */
    private long[] found = new long[0];
    private final long[] transposed = new long[64];
    /** Waiting placements are partitioned by the high bits of their column set's rank. */
    private final int setBitsInPartition;
    private final int setsPerPartition;
    /** Placements waiting to be counted, per partition of {@link #setsPerPartition} column sets. */
    private long[] waiting = new long[0];
    private int[] waitingIn = new int[0];
    private int partitions;
    private int partitionCapacity;
    /** The waiting placements of one partition sorted by column set, and the cursors that sort them. */
    private final long[] sortedWaiting = new long[MAX_PARTITION_CAPACITY];
    private final int[] bySet;
    /** One column set's words as chunk tables (see {@link #countRun}). */
    private long[] chunks = new long[1 << 12];
    private long counted;
    private int entries;
    private long key = -1;

    /**
     * A table for boards of size {@code n} that gives up (see {@link #build}) above
     * {@code maxEntries} entries and counts waiting placements by partitions of
     * {@code setsPerPartition} column sets.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 4..}{@link #MAX_SIZE},
     *     {@code maxEntries} is not positive or {@code setsPerPartition} is not a power of two up
     *     to {@link #MAX_SETS_PER_PARTITION}
     */
    BottomTable(int n, int maxEntries, int setsPerPartition) {
        if (n < 4 || n > MAX_SIZE) {
            throw new IllegalArgumentException("board size " + n + " is outside 4.." + MAX_SIZE);
        }
        if (maxEntries < 1 || Integer.bitCount(setsPerPartition) != 1 || setsPerPartition > MAX_SETS_PER_PARTITION) {
            throw new IllegalArgumentException("a table of at most " + maxEntries + " entries in partitions of "
                    + setsPerPartition + " column sets");
        }
        this.setsPerPartition = setsPerPartition;
        this.setBitsInPartition = Integer.numberOfTrailingZeros(setsPerPartition);
        this.bySet = new int[setsPerPartition + 1];
        this.n = n;
        this.full = (1 << n) - 1;
        this.block = 1 + 2 * n;
        this.rank = new SubsetRank(n - 2);
        this.maxEntries = maxEntries;
        this.onceUpTo = maxEntries / 4;
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
        return 8L * (words.length + sorted.length + found.length) + 4L * start.length;
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
        if (drain() != 0) {
            throw new IllegalStateException("placements of the previous table were not drained");
        }
        this.key = key;
        int sets = SubsetRank.count(n - 2, rows);
        if (start.length < sets + 1) {
            start = new int[sets + 1];
        }
        Arrays.fill(start, 0, sets + 1, 0);
        // Once through the placements, keeping them in the order found and counting them per
        // column set, then each copied to its set's place: the enumeration is most of the work
        // (at n = 17 a second one took a third of the table's time). A table too large for that
        // buffer is enumerated twice: first to count, then to put each placement in its place.
        int count = enumerate(rows, offsets, attacked, ONCE);
        if (count == OVER_ONCE) {
            Arrays.fill(start, 0, sets + 1, 0);
            count = enumerate(rows, offsets, attacked, COUNT);
        }
        if (count == OVER_MAX) {
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
        if (count <= onceUpTo) {
            for (int i = 0; i < count; i++) {
                long entry = found[i];
                sorted[start[(int) (entry >>> KEY_BITS)]++] = entry;
            }
        } else {
            enumerate(rows, offsets, attacked, PLACE);
        }
        slice(count, sets);
        partitions = (sets + setsPerPartition - 1) / setsPerPartition;
        partitionCapacity = Math.min(MAX_PARTITION_CAPACITY, WAITING / partitions);
        if (waiting.length < partitions * partitionCapacity) {
            waiting = new long[partitions * partitionCapacity];
        }
        if (waitingIn.length < partitions) {
            waitingIn = new int[partitions];
        }
        return true;
    }

    /**
     * Runs through every placement of the table rows, each written as its column set's rank above
     * its key. {@code ONCE} and {@code COUNT} count them per set in {@link #start}
     * ({@code start[rank + 1]}), {@code ONCE} keeps them in {@link #found} as well; {@code PLACE}
     * writes each into {@link #sorted} at its set's cursor {@code start[rank]}. Returns how many
     * there are, or {@link #OVER_MAX}, or (with {@code ONCE}) {@link #OVER_ONCE}.
     */
    private int enumerate(int rows, int[] offsets, int[] attacked, int mode) {
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
                int at = count;
                count += Integer.bitCount(nextFree);
                if (count > maxEntries) {
                    return OVER_MAX;
                }
                if (mode == ONCE && count > found.length) {
                    if (count > onceUpTo) {
                        return OVER_ONCE;
                    }
                    found = Arrays.copyOf(found, Math.min(onceUpTo, Math.max(count, found.length * 2)));
                }
                while (nextFree != 0) {
                    int square = nextFree & -nextFree;
                    nextFree ^= square;
                    // Column 0 is a border column, never in a set: the rank drops it.
                    int set = rank.of((nextColumns | square) >>> 1);
                    if (mode == COUNT) {
                        start[set + 1]++;
                        continue;
                    }
                    long left = (nextLeftSeen | square << lastOffset) & full;
                    long right = nextRightSeen | square >>> lastOffset;
                    long entry = (long) set << KEY_BITS | right << n | left;
                    if (mode == ONCE) {
                        start[set + 1]++;
                        found[at++] = entry;
                    } else {
                        sorted[start[set]++] = entry;
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
     * Adds to the count the entries that complete a partial placement that left exactly the
     * columns {@code freeColumns} unused and holds the diagonals {@code left} ("/") and
     * {@code right} ("\\") at the first table row; {@code freeColumns} must hold as many columns
     * as the table has rows. The placement waits with others of nearby column sets and is counted
     * when its partition is full or at {@link #drain}: a partition's words are then read for many
     * placements at once, from the cache, however large the table.
     */
    void add(int freeColumns, int left, int right) {
        // Bit 0 is a border column, never free: the rank drops it.
        int set = rank.of(freeColumns >>> 1);
        int partition = set >>> setBitsInPartition;
        int at = partition * partitionCapacity + waitingIn[partition]++;
        waiting[at] = (long) (set & setsPerPartition - 1) << KEY_BITS | (long) right << n | left;
        if (waitingIn[partition] == partitionCapacity) {
            flush(partition);
        }
    }

    /** The entries counted for the placements added since the last drain; counts those still waiting. */
    long drain() {
        for (int p = 0; p < partitions; p++) {
            if (waitingIn[p] > 0) {
                flush(p);
            }
        }
        long all = counted;
        counted = 0;
        return all;
    }

    /** Counts the waiting placements of one partition, sorted by column set (a counting sort). */
    private void flush(int partition) {
        int from = partition * partitionCapacity;
        int to = from + waitingIn[partition];
        waitingIn[partition] = 0;
        int[] cursor = bySet;
        Arrays.fill(cursor, 0);
        for (int i = from; i < to; i++) {
            cursor[(int) (waiting[i] >>> KEY_BITS) + 1]++;
        }
        for (int s = 0; s < setsPerPartition; s++) {
            cursor[s + 1] += cursor[s];
        }
        for (int i = from; i < to; i++) {
            long placement = waiting[i];
            sortedWaiting[cursor[(int) (placement >>> KEY_BITS)]++] = placement;
        }
        // cursor[s] is now the end of set s's placements.
        int runStart = 0;
        for (int s = 0; s < setsPerPartition; s++) {
            int runEnd = cursor[s];
            if (runEnd > runStart) {
                counted += countRun(partition << setBitsInPartition | s, runStart, runEnd);
            }
            runStart = runEnd;
        }
    }

    /**
     * The entries of column set {@code set} that complete the placements
     * {@code sortedWaiting[from .. to-1]}. For a long run the set's words are first turned into
     * chunk tables: for each group of 4 diagonals, the 16 ORs of their bit sets, so that a
     * placement's diagonals are taken 4 at a time, 11 loads per word instead of one per diagonal
     * (the chunks of a set stay in the first-level cache while its run is counted).
     */
    private long countRun(int set, int from, int to) {
        int base = start[set];
        int end = start[set + 1];
        if (to - from < CHUNKS_FROM) {
            long sum = 0;
            for (int i = from; i < to; i++) {
                sum += countWords(base, end, sortedWaiting[i] & KEY_MASK);
            }
            return sum;
        }
        int setWords = (end - base) / block;
        if (chunks.length < setWords * CHUNK_STRIDE) {
            chunks = new long[Integer.highestOneBit(setWords * CHUNK_STRIDE) * 2];
        }
        long[] table = chunks;
        for (int w = 0; w < setWords; w++) {
            int word = base + w * block;
            int at = w * CHUNK_STRIDE;
            for (int chunk = 0; chunk < CHUNK_COUNT; chunk++, at += 1 << CHUNK_BITS) {
                int diagonal = word + 1 + chunk * CHUNK_BITS;
                writeCombinations(table, at, chunk == 0 ? words[word] : 0L, onDiagonal(diagonal, word),
                        onDiagonal(diagonal + 1, word), onDiagonal(diagonal + 2, word), onDiagonal(diagonal + 3, word));
            }
        }
        int mask = table.length - 1;
        long sum = 0;
        for (int i = from; i < to; i++) {
            long held = sortedWaiting[i];
            for (int at = 0; at < setWords * CHUNK_STRIDE; at += CHUNK_STRIDE) {
                // & mask keeps the index inside the array (its length is a power of two), so the
                // JIT drops the bounds checks; the index is in range anyway.
                long rejected = table[at + (int) (held & 15) & mask]
                        | table[at + 16 + (int) (held >>> 4 & 15) & mask]
                        | table[at + 32 + (int) (held >>> 8 & 15) & mask]
                        | table[at + 48 + (int) (held >>> 12 & 15) & mask]
                        | table[at + 64 + (int) (held >>> 16 & 15) & mask]
                        | table[at + 80 + (int) (held >>> 20 & 15) & mask]
                        | table[at + 96 + (int) (held >>> 24 & 15) & mask]
                        | table[at + 112 + (int) (held >>> 28 & 15) & mask]
                        | table[at + 128 + (int) (held >>> 32 & 15) & mask]
                        | table[at + 144 + (int) (held >>> 36 & 15) & mask]
                        | table[at + 160 + (int) (held >>> 40 & 15) & mask];
                sum += Long.bitCount(~rejected);
            }
        }
        return sum;
    }

    /** The bit set of the diagonal at {@code at} in the word at {@code word}; none past the 2n diagonals. */
    private long onDiagonal(int at, int word) {
        return at < word + block ? words[at] : 0L;
    }

    /**
     * Writes the 16 ORs of the bit sets {@code d0..d3} (and {@code unused}) at {@code at}:
     * combination {@code m} ORs the {@code d_i} whose bit {@code i} is set in {@code m}. Computed in
     * registers: built from each other in memory, each would wait for the one it extends.
     */
    private static void writeCombinations(long[] t, int at, long unused, long d0, long d1, long d2, long d3) {
        long d01 = d0 | d1;
        long d23 = d2 | d3;
        t[at] = unused;
        t[at + 1] = unused | d0;
        t[at + 2] = unused | d1;
        t[at + 3] = unused | d01;
        t[at + 4] = unused | d2;
        t[at + 5] = unused | d2 | d0;
        t[at + 6] = unused | d2 | d1;
        t[at + 7] = unused | d2 | d01;
        t[at + 8] = unused | d3;
        t[at + 9] = unused | d3 | d0;
        t[at + 10] = unused | d3 | d1;
        t[at + 11] = unused | d3 | d01;
        t[at + 12] = unused | d23;
        t[at + 13] = unused | d23 | d0;
        t[at + 14] = unused | d23 | d1;
        t[at + 15] = unused | d23 | d01;
    }

    /** The entries of the words {@code from .. to-1} that share no diagonal with {@code held}. */
    private int countWords(int from, int to, long held) {
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
