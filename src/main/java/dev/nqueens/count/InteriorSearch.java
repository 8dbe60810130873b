package dev.nqueens.count;

/**
 * The stack backtracker that completes one start constellation: it fills the rows the
 * constellation leaves free, top to bottom, with one queen each, never on the border columns.
 *
 * <p>Bit {@code c} of a mask stands for column {@code c}. The search runs over "depths", one per
 * free row; {@code rowOf[d]} is the board row of depth {@code d}. At depth {@code d} the masks
 * hold what the queens placed at depths {@code 0..d-1} attack in that row: {@code columns} their
 * columns, {@code leftward} the squares on their "/" diagonals and {@code rightward} those on
 * their "\" diagonals. A "/" diagonal moves one column left per row down (shift right) and a "\"
 * diagonal one column right (shift left); between two free rows the masks shift by the row
 * distance {@code gap[d]}, which is how the rows of the constellation's side queens are skipped
 * without a stack level. Bits pushed past column {@code n-1} are cut off by {@code full}; bits
 * shifted out below column 0 fall off the int. What the constellation's own queens attack in each
 * free row is fixed, so it is computed once per constellation into {@code border[d]} (it also
 * holds the border columns 0 and n-1, whose queens are already placed).
 *
 * <p>The stack holds, per depth, the candidates not yet tried and the masks to restore when the
 * search comes back to that depth. The fast paths ({@link #countCompletions}) keep a depth's
 * values side by side in one array ({@code stack}) and only for depths with candidates left; the
 * slow paths use one array per value.
 * Not thread-safe; nothing is allocated per node.
 *
 * <p>From n = 14 on, the fast path stops about halfway and completes each placement of the upper
 * rows from a {@link BottomTable} of the lower rows (meet in the middle); how many rows the table
 * covers is the {@link Layout}'s choice. Most placements of the upper rows have no completion at
 * all (94% at n = 20), so the cost is the number of placements times the cost of counting one:
 * the table counts them bit-sliced and in batches ({@link BottomTable#add}), and the placements of
 * the last upper row are handed over in one tight loop at their parent
 * ({@link #completeFromTable}). A look-ahead
 * at that parent (does every table row keep a free square) pruned 9% of the parents at n = 20 and
 * was not faster.
 *
 * <p>Cost model of the direct search, as measured on the 2-core x86 machine the project runs on
 * (n = 16: about 200 million candidate tries, about 110 per completion, i.e. about 14 per
 * solution once the 8-fold weight is counted): the time per try is set by the two unpredictable
 * branches of the loop (does the next row keep a free square, is this depth exhausted) far more
 * than by the arithmetic, and HotSpot's C2 is sensitive to how many values the loop keeps live. Every change
 * that pruned more nodes at the price of a little more work or one more branch per node was
 * measured slower as a whole, each against the same loop in the same JVM: look-ahead on the next
 * or on the last rows (8 to 17% fewer tries), resolving the last three rows instead of two
 * (directly, or by iterating the one of the three with the fewest free squares), dropping per
 * depth the candidates that would leave the next row empty, choosing between the next two free
 * rows the one with fewer free squares (38% fewer tries, 75% more time per try), a branch-free
 * push, and preloading the border queens' diagonals as off-board bits of 64-bit masks. Placing
 * queens in the second-last rows first (pre-placed "bottom" queens) makes the tree larger, not
 * smaller. Keep a change to {@link #countDirect} only if an A/B run in one JVM says so.
 */
final class InteriorSearch {

    private final int n;
    private final int full;
    private final int[] rowOf;
    private final int[] gap;
    private final int[] border;
    private final int[] candidates;
    private final int[] columns;
    private final int[] leftward;
    private final int[] rightward;
    private final int[] queenBit;
    private final int[] board;
    /** Ints per frame of {@link #stack}, five used; a power of two keeps the offsets shifts. */
    private static final int FRAME = 8;

    /**
     * The stack of {@link #countCompletions}: one frame per depth that still has candidates to
     * try, each frame the candidates left, the columns, leftward and rightward masks and the depth,
     * side by side so that a push or a pop touches one array. A depth whose last candidate is being
     * tried leaves no frame, so a dead end pops straight back to the nearest depth with work left
     * instead of passing through every exhausted depth on the way.
     */
    private final int[] stack;
    private final long[] smallCounts = new long[3];
    /** How many of the last free rows {@link #countCompletions} takes from a {@link BottomTable}; 0 for none. */
    private final int tableRows;
    private final int maxTableEntries;
    private final int setsPerPartition;
    private final int[] tableOffsets;
    private final int[] tableAttacked;
    private BottomTable table;
    /** The key of the last table that was too large to build, or -1. */
    private long tooLarge = -1;
    /** Completions added and not yet taken (those the table still holds come on top). */
    private long added;
    private StartConstellation constellation;
    private int depths;
    /** The columns of the constellation's queens: 0, n-1 and those of the top and bottom queen. */
    private int borderColumns;

    /**
     * A search for boards of size {@code n} that completes the last {@code tableRows} free rows
     * from a {@link BottomTable} (0: searches every row), with tables of at most 4 million entries.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32}, or
     *     {@code tableRows} is negative, 1, or non-zero for a size above
     *     {@link BottomTable#MAX_SIZE} or below 4
     */
    InteriorSearch(int n, int tableRows) {
        this(n, tableRows, 1 << 22);
    }

    /**
     * As {@link #InteriorSearch(int, int)}, with tables limited to {@code maxTableEntries}
     * entries: a group whose table would be larger is completed from a table of fewer rows.
     */
    InteriorSearch(int n, int tableRows, int maxTableEntries) {
        this(n, tableRows, maxTableEntries, 256);
    }

    /**
     * As {@link #InteriorSearch(int, int, int)}, with the table counting the placements that wait
     * in partitions of {@code setsPerPartition} column sets (a power of two).
     */
    InteriorSearch(int n, int tableRows, int maxTableEntries, int setsPerPartition) {
        if (n < 1 || n > 32) {
            throw new IllegalArgumentException("board size " + n + " is outside 1..32");
        }
        if (tableRows < 0 || tableRows == 1
                || tableRows > 0 && (n < 4 || n > BottomTable.MAX_SIZE)) {
            throw new IllegalArgumentException(tableRows + " table rows on a board of " + n);
        }
        this.tableRows = tableRows;
        this.maxTableEntries = maxTableEntries;
        this.setsPerPartition = setsPerPartition;
        this.tableOffsets = new int[n];
        this.tableAttacked = new int[n];
        this.n = n;
        // 1 << 32 would be 1 in Java (the shift distance is taken mod 32), hence the long.
        this.full = (int) ((1L << n) - 1);
        this.rowOf = new int[n + 1];
        this.gap = new int[n + 1];
        this.border = new int[n + 1];
        this.candidates = new int[n + 1];
        this.columns = new int[n + 1];
        this.leftward = new int[n + 1];
        this.rightward = new int[n + 1];
        this.queenBit = new int[n + 1];
        this.board = new int[n];
        this.stack = new int[FRAME * (n + 1)];
    }

    /**
     * Prepares the search below {@code c}: the free rows, the gaps between them and what the
     * constellation attacks in each.
     *
     * @throws IllegalArgumentException if {@code c} is for another board size
     */
    void load(StartConstellation c) {
        if (c.n() != n) {
            throw new IllegalArgumentException("constellation of size " + c.n() + " on a board of " + n);
        }
        constellation = c;
        borderColumns = 1 | 1 << (n - 1) | 1 << c.top() | 1 << c.bottom();
        int d = 0;
        for (int row = 1; row < n - 1; row++) {
            if (!c.occupiesRow(row)) {
                rowOf[d] = row;
                border[d] = c.attackedInRow(row);
                d++;
            }
        }
        depths = d;
        for (int k = 0; k + 1 < depths; k++) {
            gap[k] = rowOf[k + 1] - rowOf[k];
        }
    }

    /**
     * Counts the completions of the loaded constellation: the fast path, nothing recorded. The
     * last {@code tableRows} free rows are taken from a {@link BottomTable} (built for this
     * constellation's bottom, left and right queens, or kept from the previous constellation if
     * they are the same); the rows above are searched by the stack backtracker, and each of its
     * placements of them is completed by a count over the table entries with the columns it left.
     * Without a table, or with too few rows above it, every row is searched
     * ({@link #countDirect}).
     */
    long countCompletions() {
        long earlier = takeCompletions();
        addCompletions();
        long these = takeCompletions();
        added = earlier;
        return these;
    }

    /**
     * Counts the completions of the loaded constellation into the running total that
     * {@link #takeCompletions} returns: on the table path they may be counted only later (the
     * table counts placements in batches), so that consecutive constellations that share a table
     * share its batches too.
     */
    void addCompletions() {
        // A table that would be too large is replaced by one of fewer rows (more rows searched).
        for (int rows = tableRows; rows >= 2; rows--) {
            int first = depths - rows;
            if (first >= 2 && loadTable(first, rows)) {
                search(first, true);
                return;
            }
        }
        added += countDirect();
    }

    /** The completions added since the last call, with those the table still had to count. */
    long takeCompletions() {
        long all = added + (table == null ? 0 : table.drain());
        added = 0;
        return all;
    }

    /**
     * Makes {@link #table} the table of the last {@code rows} free rows, from depth {@code first}
     * on, for the loaded constellation; false if it would be too large.
     */
    private boolean loadTable(int first, int rows) {
        StartConstellation c = constellation;
        long key = (long) rows << 24 | c.bottom() << 16 | c.left() << 8 | c.right();
        if (key == tooLarge) {
            return false;
        }
        if (table == null) {
            table = new BottomTable(n, maxTableEntries, setsPerPartition);
        } else if (table.key() == key) {
            return true;
        }
        int firstRow = rowOf[first];
        for (int t = 0; t < rows; t++) {
            int row = rowOf[first + t];
            tableOffsets[t] = row - firstRow;
            tableAttacked[t] = c.attackedInRowBelowTop(row);
        }
        added += table.drain();
        if (!table.build(key, rows, tableOffsets, tableAttacked)) {
            tooLarge = key;
            return false;
        }
        return true;
    }

    /**
     * Counts the completions of the loaded constellation by searching every free row: the fast
     * path without a table, nothing recorded. The last two free rows are not searched but
     * resolved ({@link #completeLastTwoRows}); with fewer than 4 free rows the slow path counts.
     */
    long countDirect() {
        if (depths < 4) {
            return countSmall();
        }
        return search(depths - 2, false);
    }

    /**
     * The stack backtracker of both fast paths, down to depth {@code leafDepth - 2}, the parent of
     * the placements to complete: each placement of the rows above {@code leafDepth} is completed
     * either from the table (the rows from {@code leafDepth} on are the table rows) or, without
     * one, by resolving the last two rows ({@code leafDepth} is the second-last). The parent's free
     * squares in row {@code leafDepth - 1} are run through in one tight loop
     * ({@link #completeFromTable}, {@link #completeLastTwoRows}) rather than one stack step each:
     * A/B at n = 20, 3% less time. {@code fromTable} does not change during a search, so the JIT
     * compiles the loop once for each value.
     *
     * @param leafDepth at least 2
     */
    private long search(int leafDepth, boolean fromTable) {
        final int full = this.full;
        final int[] border = this.border;
        final int[] gap = this.gap;
        final int[] stack = this.stack;
        final int parentDepth = leafDepth - 2;
        long count = 0;
        int top = 0;
        int d = 0;
        int cols = 0;
        int left = 0;
        int right = 0;
        int free = ~border[0] & full;
        while (true) {
            if (free == 0) {
                // Back to the nearest depth that still has candidates (exhausted depths left no frame).
                if (top == 0) {
                    return count;
                }
                top -= FRAME;
                free = stack[top];
                cols = stack[top + 1];
                left = stack[top + 2];
                right = stack[top + 3];
                d = stack[top + 4];
                continue;
            }
            // free & -free isolates the lowest set bit (two's complement): the next column to try.
            int bit = free & -free;
            free ^= bit;
            int shift = gap[d];
            int nextCols = cols | bit;
            int nextLeft = (left | bit) >>> shift;
            int nextRight = (right | bit) << shift;
            int nextFree = ~(nextCols | nextLeft | nextRight | border[d + 1]) & full;
            if (d == parentDepth) {
                count += fromTable ? completeFromTable(leafDepth, nextCols, nextLeft, nextRight, nextFree)
                        : completeLastTwoRows(leafDepth, nextCols, nextLeft, nextRight, nextFree);
                continue;
            }
            if (nextFree != 0) {
                stack[top] = free;
                stack[top + 1] = cols;
                stack[top + 2] = left;
                stack[top + 3] = right;
                stack[top + 4] = d;
                // The frame is kept only if this depth has candidates left: (free | -free) >>> 31
                // is 1 for any non-zero int and 0 for 0, so no branch decides it.
                top += ((free | -free) >>> 31) * FRAME;
                d++;
                free = nextFree;
                cols = nextCols;
                left = nextLeft;
                right = nextRight;
            }
        }
    }

    /**
     * Hands to the table each placement that puts a queen on one of the {@code candidates} of the
     * last row above it (depth {@code leafDepth - 1}), whose masks are {@code cols}, {@code left}
     * and {@code right}; the table counts its completions in batches (so 0 here, see
     * {@link #takeCompletions}).
     *
     * <p>What the constellation's top queen attacks in the table rows is not in the table (so that
     * one table serves every top column): its diagonals are added to the lookup key as they cross
     * the first table row; its column is never in a looked-up column set.
     */
    private long completeFromTable(int leafDepth, int cols, int left, int right, int candidates) {
        BottomTable table = this.table;
        int shift = gap[leafDepth - 1];
        int firstRow = rowOf[leafDepth];
        int topColumn = constellation.top();
        int topLeft = topColumn >= firstRow ? 1 << (topColumn - firstRow) : 0;
        int topRight = topColumn + firstRow < n ? 1 << (topColumn + firstRow) : 0;
        for (int rest = candidates; rest != 0; rest &= rest - 1) {
            int bit = rest & -rest;
            int remaining = ~(cols | bit | borderColumns) & full;
            table.add(remaining, ((left | bit) >>> shift) | topLeft, (((right | bit) << shift) | topRight) & full);
        }
        return 0;
    }

    /**
     * Completes each placement that puts a queen on one of the {@code candidates} of the
     * third-last free row (depth {@code leafDepth - 1}) by resolving the last two rows.
     *
     * <p>When the queen of the third-last free row is placed, exactly two columns are left unused
     * ({@code remaining}: every column holds one queen in the end), so the two rows can only be
     * completed in the two ways of putting those columns into them. A way works if each column is
     * free in its row as far as the queens placed so far are concerned and the two new queens do
     * not share a diagonal, which they do exactly when their columns are as far apart as their rows
     * ({@code lastGap}).
     */
    private long completeLastTwoRows(int leafDepth, int cols, int left, int right, int candidates) {
        int shift = gap[leafDepth - 1];
        int lastGap = gap[leafDepth];
        int penultimateBorder = border[leafDepth];
        int lastBorder = border[leafDepth + 1];
        long count = 0;
        for (int rest = candidates; rest != 0; rest &= rest - 1) {
            int bit = rest & -rest;
            int nextCols = cols | bit;
            int nextLeft = (left | bit) >>> shift;
            int nextRight = (right | bit) << shift;
            int remaining = ~(nextCols | borderColumns) & full;
            int inPenultimate = ~(nextCols | nextLeft | nextRight | penultimateBorder) & full;
            int inLast = ~(nextCols | (nextLeft >>> lastGap) | (nextRight << lastGap) | lastBorder) & full;
            int low = remaining & -remaining;
            int high = remaining ^ low;
            if (high != low << lastGap) {
                count += ((inPenultimate & low) != 0 & (inLast & high) != 0 ? 1 : 0)
                        + ((inPenultimate & high) != 0 & (inLast & low) != 0 ? 1 : 0);
            }
        }
        return count;
    }

    /** Counts the completions when at most two rows are free, where the main loop has no room. */
    private long countSmall() {
        countBySymmetry(smallCounts);
        return smallCounts[0] + smallCounts[1] + smallCounts[2];
    }

    /**
     * Counts the completions of the loaded constellation by their own symmetry: {@code out[0]}
     * those no rotation leaves unchanged, {@code out[1]} those unchanged by the half turn only,
     * {@code out[2]} those unchanged by the quarter turn. The slow path, for the few symmetric
     * constellations: it keeps each queen to look at the whole board at every solution.
     *
     * @throws IllegalArgumentException if {@code out} has fewer than 3 elements
     */
    void countBySymmetry(long[] out) {
        if (out.length < 3) {
            throw new IllegalArgumentException("need 3 counters, got " + out.length);
        }
        out[0] = 0;
        out[1] = 0;
        out[2] = 0;
        if (depths == 0) {
            classify(out);
            return;
        }
        int d = 0;
        startSlowPath();
        while (d >= 0) {
            int free = candidates[d];
            if (free == 0) {
                d--;
                continue;
            }
            int bit = free & -free;
            candidates[d] = free ^ bit;
            queenBit[d] = bit;
            if (d == depths - 1) {
                classify(out);
                continue;
            }
            descend(d, bit);
            d++;
        }
    }

    /**
     * Counts the partial placements of the first {@code rows} free rows (all of them, of every
     * length from 1 to {@code rows}): a cheap measure of how bushy the top of the search tree is,
     * used to pick the orientation to search and to balance work units.
     */
    long countPartial(int rows) {
        int limit = Math.min(rows, depths);
        if (limit == 0) {
            return 1;
        }
        long count = 0;
        int d = 0;
        startSlowPath();
        while (d >= 0) {
            int free = candidates[d];
            if (d == limit - 1) {
                // The deepest counted row: its candidates are all leaves, count them at once.
                count += Integer.bitCount(free);
                d--;
                continue;
            }
            if (free == 0) {
                d--;
                continue;
            }
            int bit = free & -free;
            candidates[d] = free ^ bit;
            count++;
            descend(d, bit);
            d++;
        }
        return count;
    }

    /** The slow paths' depth 0: every non-border column of the first free row, nothing placed yet. */
    private void startSlowPath() {
        candidates[0] = ~border[0] & full;
        columns[0] = 0;
        leftward[0] = 0;
        rightward[0] = 0;
    }

    /** The slow paths' step down: the masks and candidates of depth d + 1 with a queen on {@code bit} at depth d. */
    private void descend(int d, int bit) {
        int shift = gap[d];
        columns[d + 1] = columns[d] | bit;
        leftward[d + 1] = (leftward[d] | bit) >>> shift;
        rightward[d + 1] = (rightward[d] | bit) << shift;
        candidates[d + 1] = ~(columns[d + 1] | leftward[d + 1] | rightward[d + 1] | border[d + 1]) & full;
    }

    /** Assembles the whole board of the current solution and counts it by its rotations. */
    private void classify(long[] out) {
        StartConstellation c = constellation;
        board[0] = c.top();
        board[n - 1] = c.bottom();
        board[c.left()] = 0;
        board[c.right()] = n - 1;
        for (int d = 0; d < depths; d++) {
            board[rowOf[d]] = Integer.numberOfTrailingZeros(queenBit[d]);
        }
        if (isQuarterTurnSymmetric()) {
            out[2]++;
        } else if (isHalfTurnSymmetric()) {
            out[1]++;
        } else {
            out[0]++;
        }
    }

    /** The half turn maps the queen (r, c) to (n-1-r, n-1-c). */
    private boolean isHalfTurnSymmetric() {
        for (int r = 0; r < n; r++) {
            if (board[n - 1 - r] != n - 1 - board[r]) {
                return false;
            }
        }
        return true;
    }

    /** The quarter turn maps the queen (r, c) to (c, n-1-r). */
    private boolean isQuarterTurnSymmetric() {
        for (int r = 0; r < n; r++) {
            if (board[board[r]] != n - 1 - r) {
                return false;
            }
        }
        return true;
    }
}
