package dev.nqueens.count;

/**
 * The placements of a quadrant cell as {@link HalfBoard} joins them: as patterns of the half
 * board's border (see there), without those on a diagonal of the segment's middle queens. The
 * quadrants are numbered 0 top left, 1 top right, 2 bottom left, 3 bottom right.
 *
 * <p>A cell converted is kept in a small cache per quadrant ({@code SLOTS} cells, the last one of each
 * slot, in an arena that starts over when full or when the segment changes): off the centre a
 * task's top half asks for many cells again, once for each row of the middle column's queen,
 * and consecutive tasks share their right quadrant's columns. Keeping a segment's every converted
 * cell instead was no faster and took hundreds of megabytes (docs/engine.md).
 *
 * <p>Not thread-safe: one per {@link TaskCounter}.
 */
final class QuadrantPatterns {

    private static final long SLASHES = 0x5555555555555555L;
    private static final long BACKS = 0xAAAAAAAAAAAAAAAAL;

    private final QuadrantSource quadrants;
    private final int n;
    private final int h;
    private final int offset;
    private final long patternMask;
    /** Per quadrant: its diagonals the middle queens occupy, in its own interleaved numbering. */
    private final long[] blocked = new long[4];

    private static final int SLOTS = 1 << 12;
    private static final int ARENA = 1 << 18;
    /** Per quadrant and slot: the cell it holds (-1: none), where its patterns start, how many. */
    private final int[][] slotCell = new int[4][SLOTS];

    private final int[][] slotStart = new int[4][SLOTS];
    private final int[][] slotCount = new int[4][SLOTS];
    private final long[][] arena = new long[4][ARENA];
    private final int[] arenaSize = new int[4];
    /** Per quadrant, where the last cell asked for lies. */
    private final long[][] found = new long[4][];

    private final long[][] current = new long[4][];
    private final int[] from = new int[4];

    /** Patterns of boards of size {@code n} from {@code quadrants}. */
    QuadrantPatterns(int n, QuadrantSource quadrants) {
        this.quadrants = quadrants;
        this.n = n;
        this.h = n / 2;
        this.offset = n - h;
        this.patternMask = (1L << 2 * (2 * h - 1)) - 1;
        for (int q = 0; q < 4; q++) {
            found[q] = new long[64];
            java.util.Arrays.fill(slotCell[q], -1);
        }
    }

    /** Converts the cells of {@code segment} from now on. */
    void use(Segment segment) {
        for (int q = 0; q < 4; q++) {
            blocked[q] = localDiagonals(q, segment.occupiedSlash, segment.occupiedBack);
            forget(q);
        }
    }

    private void forget(int q) {
        java.util.Arrays.fill(slotCell[q], -1);
        arenaSize[q] = 0;
    }

    /**
     * Makes the patterns of cell (rows, columns) of quadrant {@code q} clear of the middle row's
     * queen available as {@code array(q)[from(q) .. from(q) + count - 1]} until the next call for
     * {@code q}; returns the count.
     */
    int select(int q, int rows, int columns) {
        int cell = columns << h | rows;
        // Cells of one column set differ in their rows: the slot mixes both.
        int slot = (rows ^ columns * 0x9E3779B1 >>> 16) & (SLOTS - 1);
        if (slotCell[q][slot] == cell) {
            current[q] = arena[q];
            from[q] = slotStart[q][slot];
            return slotCount[q][slot];
        }
        quadrants.select(rows, columns);
        long[] entries = quadrants.array();
        int first = quadrants.from();
        int last = quadrants.to();
        if (arenaSize[q] + last - first > ARENA) {
            forget(q);
        }
        long[] out;
        int at;
        if (last - first > ARENA) {
            // Too large to keep (not met below h = 12): converted into its own buffer.
            if (found[q].length < last - first) {
                found[q] = new long[last - first];
            }
            out = found[q];
            at = 0;
        } else {
            out = arena[q];
            at = arenaSize[q];
        }
        long cut = blocked[q];
        int count = 0;
        for (int i = first; i < last; i++) {
            long entry = entries[i];
            out[at + count] = pattern(q, entry);
            count += (int) (((entry & cut) - 1) >>> 63);
        }
        from[q] = at;
        if (out == arena[q]) {
            arenaSize[q] += count;
            slotCell[q][slot] = cell;
            slotStart[q][slot] = at;
            slotCount[q][slot] = count;
            current[q] = arena[q];
        } else {
            current[q] = out;
        }
        return count;
    }

    long[] array(int q) {
        return current[q];
    }

    int from(int q) {
        return from[q];
    }

    /**
     * The diagonals of quadrant {@code q} (in its own interleaved numbering, see
     * {@link QuadrantTable}) that are among the board's diagonals given.
     */
    private long localDiagonals(int q, long slashes, long backs) {
        int firstRow = q < 2 ? 0 : offset;
        int firstColumn = q % 2 == 0 ? 0 : offset;
        long local = 0;
        for (int d = 0; d <= 2 * h - 2; d++) {
            // Square (r, c) of the quadrant is (firstRow + r, firstColumn + c) of the board.
            int slash = d + firstRow + firstColumn;
            int back = d - (h - 1) + firstRow - firstColumn + n - 1;
            if (slash < 64 && (slashes >>> slash & 1) != 0) {
                local |= 1L << 2 * d;
            }
            if (back >= 0 && back < 64 && (backs >>> back & 1) != 0) {
                local |= 1L << 2 * d + 1;
            }
        }
        return local;
    }

    /**
     * The pattern of a placement of quadrant {@code q} from its interleaved diagonals: the border's
     * diagonal {@code offset + i} is the quadrant's diagonal {@code i + offset} (top left "/",
     * top right "\"), {@code i} (top right "/", top left "\", bottom left "/", bottom right "\") or
     * {@code i - offset} (bottom left "\", bottom right "/"), so each direction is shifted by
     * {@code 2·offset} bits or not at all, and what falls outside the border is cut off.
     */
    private long pattern(int q, long diagonals) {
        long slashes = diagonals & SLASHES;
        long backs = diagonals & BACKS;
        int shift = 2 * offset;
        return switch (q) {
                    case 0 -> slashes >>> shift | backs;
                    case 1 -> slashes | backs >>> shift;
                    case 2 -> slashes | backs << shift;
                    default -> slashes << shift | backs;
                }
                & patternMask;
    }
}
