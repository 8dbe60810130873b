package dev.nqueens.query;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * The latest run of the nightly job, with why it failed when it did.
 *
 * @param run the job execution id
 * @param status Spring Batch's status of the run
 * @param started when it started, null if it never did
 * @param ended when it ended, null while running or when its process died
 * @param reason the first line of the run's exit message, or of its first failed step's; empty if none
 * @param lastCompleted when the latest COMPLETED run ended, if there is one
 * @param lastFinished when the latest run that finished its night ended, if there is one: it
 *     COMPLETED, or stopped because its time window closed (the next run goes on from there)
 */
public record LastRun(
        long run,
        String status,
        Instant started,
        Instant ended,
        String reason,
        Optional<Instant> lastCompleted,
        Optional<Instant> lastFinished) {

    private static final Set<String> RUNNING = Set.of("STARTING", "STARTED", "STOPPING");

    /** A failure: FAILED, not STOPPED on purpose nor ABANDONED for a newer request. */
    public boolean failed() {
        return "FAILED".equals(status);
    }

    /** Still going, as far as the job repository knows (a process that died leaves it so too). */
    public boolean running() {
        return RUNNING.contains(status);
    }
}
