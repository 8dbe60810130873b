package dev.nqueens.store;

/** Counts of one size as found in the stored rows, before they become a summary. */
public record ClassCounts(long totalSolutions, long fundamentalSolutions, long rot90Classes,
        long rot180Classes, long asymmetricClasses) {
}
