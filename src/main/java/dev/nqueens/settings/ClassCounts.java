package dev.nqueens.settings;

/** Counts of one size as found in the stored rows, before they become a summary. */
public record ClassCounts(
        long totalSolutions, long fundamentalSolutions, long rot90Classes, long rot180Classes, long asymmetricClasses) {

    /** {@code 92 solutions, 12 fundamental (rot90/rot180/asymmetric 0/1/11)}. */
    public String describe() {
        return totalSolutions + " solutions, " + fundamentalSolutions + " fundamental (rot90/rot180/asymmetric "
                + rot90Classes + "/" + rot180Classes + "/" + asymmetricClasses + ")";
    }
}
