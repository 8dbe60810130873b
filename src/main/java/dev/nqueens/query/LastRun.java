package dev.nqueens.query;

import java.time.Instant;
import java.util.Optional;

/**
 * The latest run of the nightly job, with why it failed when it did.
 *
 * @param run the job execution id
 * @param status Spring Batch's status of the run
 * @param started when it started, null if it never did
 * @param ended when it ended, null while running or when its process died
 * @param reason the first line of the run's exit message, or of its first failed step's; empty if none
 * @param lastCompleted when the latest COMPLETED run ended, if there is one
 */
public record LastRun(long run, String status, Instant started, Instant ended, String reason,
        Optional<Instant> lastCompleted) {

    /** A failure: FAILED, not STOPPED on purpose nor ABANDONED for a newer request. */
    public boolean failed() {
        return "FAILED".equals(status);
    }
}
