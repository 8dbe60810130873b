package dev.nqueens.count;

/**
 * The placements of a quadrant cell as {@link HalfBoard} joins them: as patterns of the half
 * board's border (see there), without those on a diagonal of the segment's middle queens. The
 * quadrants are numbered 0 top left, 1 top right, 2 bottom left, 3 bottom right.
 *
 * <p>Off the centre of an odd board a segment's tasks read every cell of every quadrant many
 * times (a cell serves every column set that contains its columns), and most of a cell's
 * placements are cut by the middle queens there; so for such a segment the patterns of all four
 * quadrants are computed once, when the segment is taken up, if the heap holds them
 * ({@link #tabulates}). Otherwise each cell is read from the {@link QuadrantSource} and converted
 * when it is asked for.
 *
 * <p>Not thread-safe: one per {@link TaskCounter}.
 */
final class QuadrantPatterns {

    private static final long SLASHES = 0x5555555555555555L;
    private static final long BACKS = 0xAAAAAAAAAAAAAAAAL;

    private final QuadrantSource quadrants;
    private final QuadrantTable table;
    private final boolean tabulate;
    private final int n;
    private final int h;
    private final int offset;
    private final long patternMask;
    /** Per quadrant: its diagonals the middle queens occupy, in its own interleaved numbering. */
    private final long[] blocked = new long[4];
    /** Per quadrant, the patterns of cell k at {@code patterns[q][start[q][k] .. start[q][k + 1] - 1]} (tabulated). */
    private final int[][] start = new int[4][];
    private final long[][] patterns = new long[4][];
    private boolean tabulated;
    /** Per quadrant, where the last cell asked for lies. */
    private final long[][] found = new long[4][];
    private final int[] from = new int[4];

    /**
     * Patterns of boards of size {@code n} from {@code quadrants}; {@code table}, if not null, is
     * the table behind it, and {@code tabulate} allows segments off the centre to be tabulated.
     */
    QuadrantPatterns(int n, QuadrantSource quadrants, QuadrantTable table, boolean tabulate) {
        this.quadrants = quadrants;
        this.table = table;
        this.tabulate = tabulate && table != null;
        this.n = n;
        this.h = n / 2;
        this.offset = n - h;
        this.patternMask = (1L << 2 * (2 * h - 1)) - 1;
        for (int q = 0; q < 4; q++) {
            found[q] = new long[64];
        }
    }

    /** Whether segments off the centre are tabulated when taken up. */
    boolean tabulates() {
        return tabulate;
    }

    /** Converts the cells of {@code segment} from now on (tabulating them if this segment is off the centre). */
    void use(Segment segment) {
        for (int q = 0; q < 4; q++) {
            blocked[q] = localDiagonals(q, segment.occupiedSlash, segment.occupiedBack);
        }
        tabulated = tabulate && !segment.symmetric;
        if (tabulated) {
            for (int q = 0; q < 4; q++) {
                tabulate(q, q < 2 ? segment.topRows : segment.bottomRows,
                        (q % 2 == 0 ? segment.columns : segment.columns >>> h) & ((1 << h) - 1));
            }
        }
    }

    /**
     * Makes the patterns of cell (rows, columns) of quadrant {@code q} available as
     * {@code array(q)[from(q) .. from(q) + count - 1]} until the next call for {@code q}; returns
     * the count.
     */
    int select(int q, int rows, int columns) {
        if (tabulated) {
            int cell = table.cell(rows, columns);
            found[q] = patterns[q];
            from[q] = start[q][cell];
            return start[q][cell + 1] - start[q][cell];
        }
        quadrants.select(rows, columns);
        long[] entries = quadrants.array();
        int first = quadrants.from();
        int last = quadrants.to();
        if (found[q].length < last - first) {
            found[q] = new long[Integer.highestOneBit(last - first) * 2];
        }
        long[] out = found[q];
        long cut = blocked[q];
        int count = 0;
        for (int i = first; i < last; i++) {
            long entry = entries[i];
            out[count] = pattern(q, entry);
            count += (int) (((entry & cut) - 1) >>> 63);
        }
        from[q] = 0;
        return count;
    }

    long[] array(int q) {
        return found[q];
    }

    int from(int q) {
        return from[q];
    }

    /** Tabulates quadrant q's cells on rows within {@code rows} and columns within {@code columns}. */
    private void tabulate(int q, int rows, int columns) {
        int cells = 1 << 2 * h;
        if (start[q] == null) {
            start[q] = new int[cells + 1];
        }
        int[] at = start[q];
        long cut = blocked[q];
        int count = 0;
        for (int cell = 0; cell < cells; cell++) {
            at[cell] = count;
            if (usable(cell, rows, columns)) {
                for (int i = table.start[cell]; i < table.start[cell + 1]; i++) {
                    count += (int) (((table.diagonals[i] & cut) - 1) >>> 63);
                }
            }
        }
        at[cells] = count;
        if (patterns[q] == null || patterns[q].length < count) {
            patterns[q] = new long[count + count / 8];
        }
        long[] out = patterns[q];
        for (int cell = 0; cell < cells; cell++) {
            if (usable(cell, rows, columns)) {
                int k = at[cell];
                for (int i = table.start[cell]; i < table.start[cell + 1]; i++) {
                    long entry = table.diagonals[i];
                    if ((entry & cut) == 0) {
                        out[k++] = pattern(q, entry);
                    }
                }
            }
        }
    }

    /** Whether a cell keeps to the given rows and columns (its key is {@code columns << h | rows}). */
    private boolean usable(int cell, int rows, int columns) {
        return (cell & ((1 << h) - 1) & ~rows) == 0 && ((cell >>> h) & ~columns) == 0;
    }

    /**
     * Heap bytes the tabulated patterns of a segment take at most: the rows and columns the middle
     * queens leave and their diagonals keep at most 0.39 of four tables' placements (measured for
     * every odd size up to 21; 0.33 at n = 21), with room for 1/8 more, and four cell indexes.
     */
    static long tabulatedBytes(int n) {
        int h = n / 2;
        if (h > QuadrantTable.MAX_SIDE) {
            return Long.MAX_VALUE / 4;
        }
        long placements = (long) Math.ceil(0.4 * 4 * QuadrantTable.placements(h));
        return 8 * (placements + placements / 8) + 4 * 4 * ((1L << 2 * h) + 1);
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
        } & patternMask;
    }
}
