package dev.nqueens.settings;

/** How much of a board size the database holds ({@code board_summary.stored}). */
public enum StoredLevel {
    /** Every solution and every class representative. */
    ALL,
    /** Only the class representatives. */
    FUNDAMENTAL,
    /** Only the counts. */
    COUNT
}
