package dev.nqueens.job;

import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StorageLimits;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one run is asked to do.
 *
 * @param sizes the board sizes
 * @param limits the storage level of each size
 * @param force recompute sizes that are already published
 * @param lower the sizes the run may lower to the level {@code limits} give them, dropping rows: a
 *     size stored at a higher level is otherwise kept as it is
 * @param key identifies the run's job instance: its start time, or the scheduled time of a
 *     scheduled run (local time of the schedule's zone)
 * @param start when the run's time window opens: now, or the scheduled time
 * @param window how long the run may take new work; empty for no limit. Not part of what
 *     identifies the run's work: a run with another window goes on with the same work.
 */
public record RunRequest(
        BoardSizes sizes,
        StorageLimits limits,
        boolean force,
        Set<Integer> lower,
        LocalDateTime key,
        Instant start,
        Optional<Duration> window) {

    public RunRequest {
        lower = Set.copyOf(new TreeSet<>(lower));
    }

    /** A run that lowers no size. */
    public RunRequest(
            BoardSizes sizes,
            StorageLimits limits,
            boolean force,
            LocalDateTime key,
            Instant start,
            Optional<Duration> window) {
        this(sizes, limits, force, Set.of(), key, start, window);
    }

    /** A run that starts now, at {@code key}, without a time window, lowering no size. */
    public RunRequest(BoardSizes sizes, StorageLimits limits, boolean force, LocalDateTime key) {
        this(sizes, limits, force, Set.of(), key, Instant.now(), Optional.empty());
    }

    /** When the window closes: no new work after it. */
    public Optional<Instant> deadline() {
        return window.map(start::plus);
    }

    /** The sizes to lower as {@code BoardSizes} write them ({@code 13-14}), or empty for none. */
    public String lowerText() {
        return lower.isEmpty() ? "" : BoardSizes.of(lower).toString();
    }

    /** A request waiting for its time (a scheduled run gets it when its time comes). */
    public record Builder(BoardSizes sizes, StorageLimits limits, boolean force, Optional<Duration> window) {

        /** The request for the run scheduled at {@code time} in {@code zone}. */
        public RunRequest at(LocalDateTime time, ZoneId zone) {
            return new RunRequest(sizes, limits, force, time, time.atZone(zone).toInstant(), window);
        }
    }
}
