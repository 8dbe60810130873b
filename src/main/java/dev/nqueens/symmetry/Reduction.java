package dev.nqueens.symmetry;

import dev.nqueens.solver.Placement;

/**
 * What the reducer says of one placement: its class representative (the lexicographically
 * smallest of its eight images), the class's size, its symmetry, and {@code fromRepresentative}:
 * a symmetry (0-7, numbered as in {@link SymmetryReducer}) that maps the representative onto the
 * placement (the smallest such number is not promised; a symmetric class has several).
 */
public record Reduction(Placement representative, int orbitSize, SymmetryType symmetry, int fromRepresentative) {

    /** True when the reduced placement is its own class representative. */
    public boolean isRepresentative(Placement placement) {
        return representative.equals(placement);
    }
}
