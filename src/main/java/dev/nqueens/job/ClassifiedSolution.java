package dev.nqueens.job;

import dev.nqueens.solver.Placement;
import dev.nqueens.symmetry.Reduction;

/** A ranked solution with its symmetry class. */
record ClassifiedSolution(long ordinal, Placement placement, Reduction reduction) {

    boolean isRepresentative() {
        return reduction.isRepresentative(placement);
    }
}
