package dev.nqueens.job;

import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StorageLimits;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Optional;

/**
 * What one run is asked to do.
 *
 * @param sizes the board sizes
 * @param limits the storage level of each size
 * @param force recompute sizes that are already published
 * @param key identifies the run's job instance: its start time, or the scheduled time of a
 *     scheduled run (local time of the schedule's zone)
 * @param start when the run's time window opens: now, or the scheduled time
 * @param window how long the run may take new work; empty for no limit. Not part of what
 *     identifies the run's work: a run with another window goes on with the same work.
 */
public record RunRequest(BoardSizes sizes, StorageLimits limits, boolean force, LocalDateTime key, Instant start,
        Optional<Duration> window) {

    /** A run that starts now, at {@code key}, without a time window. */
    public RunRequest(BoardSizes sizes, StorageLimits limits, boolean force, LocalDateTime key) {
        this(sizes, limits, force, key, Instant.now(), Optional.empty());
    }

    /** When the window closes: no new work after it. */
    public Optional<Instant> deadline() {
        return window.map(start::plus);
    }

    /** A request waiting for its time (a scheduled run gets it when its time comes). */
    public record Builder(BoardSizes sizes, StorageLimits limits, boolean force, Optional<Duration> window) {

        /** The request for the run scheduled at {@code time} in {@code zone}. */
        public RunRequest at(LocalDateTime time, ZoneId zone) {
            return new RunRequest(sizes, limits, force, time, time.atZone(zone).toInstant(), window);
        }
    }
}
