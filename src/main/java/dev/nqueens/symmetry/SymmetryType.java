package dev.nqueens.symmetry;

/** What a class of solutions is unchanged by, besides the identity. */
public enum SymmetryType {
    /** Unchanged by a quarter turn (orbit size 2; the single queen of n = 1 also, orbit 1). */
    ROT90,
    /** Unchanged by a half turn but not by a quarter turn (orbit size 4). */
    ROT180,
    /** Unchanged by no rotation (orbit size 8). */
    NONE
}
