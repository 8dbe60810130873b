package dev.nqueens.job;

import dev.nqueens.solver.Placement;

/** A solution and its lexicographic rank among the solutions of its size. */
record NumberedPlacement(long ordinal, Placement placement) {
}
