package dev.nqueens.symmetry;

import dev.nqueens.board.Symmetry;
import dev.nqueens.solver.Placement;
import java.util.Arrays;

/**
 * Maps a placement to its class under the eight symmetries of the square ({@link Symmetry}).
 *
 * <p>Holds scratch arrays for one size: not thread-safe, one instance per worker.
 */
public final class SymmetryReducer {

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
        for (int symmetry = 1; symmetry < Symmetry.COUNT; symmetry++) {
            Symmetry.image(symmetry, columns, image);
            int order = Arrays.compare(image, smallest);
            if (Arrays.equals(image, columns)) {
                fixedBy++;
                fixedByRot90 |= symmetry == Symmetry.QUARTER_TURN;
                fixedByRot180 |= symmetry == Symmetry.HALF_TURN;
            }
            if (order < 0) {
                System.arraycopy(image, 0, smallest, 0, n);
                toSmallest = symmetry;
            }
        }
        SymmetryType type = fixedByRot90 ? SymmetryType.ROT90 : fixedByRot180 ? SymmetryType.ROT180 : SymmetryType.NONE;
        // The orbit-stabiliser theorem: the class has 8 / |stabiliser| members.
        return new Reduction(new Placement(smallest), Symmetry.COUNT / fixedBy, type, Symmetry.inverse(toSmallest));
    }
}
