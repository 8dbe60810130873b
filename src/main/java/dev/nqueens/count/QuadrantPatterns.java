package dev.nqueens.count;

/**
 * The placements of a quadrant cell as {@link HalfBoard} joins them: as patterns of the half
 * board's border (see there), without those on a diagonal of the segment's middle queens. The
 * quadrants are numbered 0 top left, 1 top right, 2 bottom left, 3 bottom right.
 *
 * <p>Each cell is read from the {@link QuadrantSource} and converted when it is asked for: keeping
 * the converted cells of a segment (they are read again by other column sets) was measured no
 * faster and takes hundreds of megabytes (docs/engine.md).
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
    /** Per quadrant, where the last cell asked for lies. */
    private final long[][] found = new long[4][];

    /** Patterns of boards of size {@code n} from {@code quadrants}. */
    QuadrantPatterns(int n, QuadrantSource quadrants) {
        this.quadrants = quadrants;
        this.n = n;
        this.h = n / 2;
        this.offset = n - h;
        this.patternMask = (1L << 2 * (2 * h - 1)) - 1;
        for (int q = 0; q < 4; q++) {
            found[q] = new long[64];
        }
    }

    /** Converts the cells of {@code segment} from now on. */
    void use(Segment segment) {
        for (int q = 0; q < 4; q++) {
            blocked[q] = localDiagonals(q, segment.occupiedSlash, segment.occupiedBack);
        }
    }

    /**
     * Makes the patterns of cell (rows, columns) of quadrant {@code q} clear of the middle row's
     * queen available as {@code array(q)[from(q) .. from(q) + count - 1]} until the next call for
     * {@code q}; returns the count.
     */
    int select(int q, int rows, int columns) {
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
        return count;
    }

    long[] array(int q) {
        return found[q];
    }

    int from(int q) {
        return 0;
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
