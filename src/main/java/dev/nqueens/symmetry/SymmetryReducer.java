package dev.nqueens.symmetry;

import dev.nqueens.solver.Placement;
import java.util.Arrays;

/**
 * Maps a placement to its class under the eight symmetries of the square (four rotations, four
 * reflections). A queen on (row r, column c) of an n×n board goes, under each symmetry, to:
 * rotation by 90° clockwise (c, n-1-r), 180° (n-1-r, n-1-c), 270° (n-1-c, r); mirror left-right
 * (r, n-1-c), mirror top-bottom (n-1-r, c), main diagonal (c, r), anti-diagonal (n-1-c, n-1-r).
 * Every image of a solution is a solution, and one queen per row stays one queen per row.
 *
 * <p>Holds scratch arrays for one size: not thread-safe, one instance per worker.
 */
public final class SymmetryReducer {

    private static final int SYMMETRIES = 8;
    private static final int ROT90 = 1;
    private static final int ROT180 = 2;

    private final int n;
    private final int[] image;
    private final int[] smallest;

    /**
     * @throws IllegalArgumentException if {@code n} is not positive
     */
    public SymmetryReducer(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("board size " + n + " is not positive");
        }
        this.n = n;
        this.image = new int[n];
        this.smallest = new int[n];
    }

    /** The board size this reducer works on. */
    public int size() {
        return n;
    }

    /**
     * @throws IllegalArgumentException if the placement is not of this reducer's size
     */
    public Reduction reduce(Placement placement) {
        if (placement.size() != n) {
            throw new IllegalArgumentException(
                    "placement of size " + placement.size() + " given to a reducer of size " + n);
        }
        int[] columns = placement.columns();
        System.arraycopy(columns, 0, smallest, 0, n);
        int fixedBy = 1;
        int toSmallest = 0;
        boolean fixedByRot90 = false;
        boolean fixedByRot180 = false;
        for (int symmetry = 1; symmetry < SYMMETRIES; symmetry++) {
            transform(symmetry, columns, image);
            int order = Arrays.compare(image, smallest);
            if (Arrays.equals(image, columns)) {
                fixedBy++;
                fixedByRot90 |= symmetry == ROT90;
                fixedByRot180 |= symmetry == ROT180;
            }
            if (order < 0) {
                System.arraycopy(image, 0, smallest, 0, n);
                toSmallest = symmetry;
            }
        }
        SymmetryType type = fixedByRot90 ? SymmetryType.ROT90
                : fixedByRot180 ? SymmetryType.ROT180 : SymmetryType.NONE;
        // The orbit-stabiliser theorem: the class has 8 / |stabiliser| members.
        return new Reduction(new Placement(smallest), SYMMETRIES / fixedBy, type, inverse(toSmallest));
    }

    /** The symmetry that undoes {@code symmetry}: the quarter turns undo each other, the rest themselves. */
    public static int inverse(int symmetry) {
        return switch (symmetry) {
            case ROT90 -> 3;
            case 3 -> ROT90;
            default -> symmetry;
        };
    }

    /**
     * The image of {@code placement} under symmetry number {@code symmetry} (0 = identity, 1-3 the
     * clockwise quarter turns, 4-7 the reflections, as in the class comment).
     *
     * @throws IllegalArgumentException if {@code symmetry} is outside 0..7 or the size differs
     */
    public Placement image(int symmetry, Placement placement) {
        if (symmetry < 0 || symmetry >= SYMMETRIES) {
            throw new IllegalArgumentException("no symmetry " + symmetry + "; they are numbered 0..7");
        }
        if (placement.size() != n) {
            throw new IllegalArgumentException(
                    "placement of size " + placement.size() + " given to a reducer of size " + n);
        }
        int[] out = new int[n];
        transform(symmetry, placement.columns(), out);
        return new Placement(out);
    }

    /**
     * Where symmetry {@code symmetry} takes the square (row, column) of an n×n board, both 0-based:
     * returns {@code {row', column'}}.
     *
     * @throws IllegalArgumentException if {@code symmetry} is outside 0..7
     */
    public static int[] imageOfSquare(int symmetry, int n, int row, int column) {
        int last = n - 1;
        return switch (symmetry) {
            case 0 -> new int[] {row, column};
            case ROT90 -> new int[] {column, last - row};
            case ROT180 -> new int[] {last - row, last - column};
            case 3 -> new int[] {last - column, row};
            case 4 -> new int[] {row, last - column};
            case 5 -> new int[] {last - row, column};
            case 6 -> new int[] {column, row};
            case 7 -> new int[] {last - column, last - row};
            default -> throw new IllegalArgumentException("no symmetry " + symmetry + "; they are numbered 0..7");
        };
    }

    /** Writes the image of {@code columns} under symmetry number {@code symmetry} (0 = identity). */
    private void transform(int symmetry, int[] columns, int[] out) {
        int last = n - 1;
        for (int r = 0; r < n; r++) {
            int c = columns[r];
            switch (symmetry) {
                case 0 -> out[r] = c;
                case ROT90 -> out[c] = last - r;
                case ROT180 -> out[last - r] = last - c;
                case 3 -> out[last - c] = r;
                case 4 -> out[r] = last - c;
                case 5 -> out[last - r] = c;
                case 6 -> out[c] = r;
                case 7 -> out[last - c] = last - r;
                default -> throw new IllegalStateException("no symmetry " + symmetry);
            }
        }
    }
}
