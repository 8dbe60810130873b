package dev.nqueens.symmetry;

import dev.nqueens.solver.Placement;

/**
 * What the reducer says of one placement: its class representative (the lexicographically
 * smallest of its eight images), the class's size and its symmetry.
 */
public record Reduction(Placement representative, int orbitSize, SymmetryType symmetry) {

    /** True when the reduced placement is its own class representative. */
    public boolean isRepresentative(Placement placement) {
        return representative.equals(placement);
    }
}
