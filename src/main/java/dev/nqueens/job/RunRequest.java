package dev.nqueens.job;

import java.time.LocalDateTime;

/**
 * What one run is asked to do.
 *
 * @param sizes the board sizes
 * @param limits the storage level of each size
 * @param force recompute sizes that are already published
 * @param key identifies the run's job instance: its start time, or the scheduled time of a
 *     scheduled run
 */
public record RunRequest(BoardSizes sizes, StorageLimits limits, boolean force, LocalDateTime key) {

    /** A request waiting for its key (a scheduled run gets it when its time comes). */
    public record Builder(BoardSizes sizes, StorageLimits limits, boolean force) {
        public RunRequest key(LocalDateTime key) {
            return new RunRequest(sizes, limits, force, key);
        }
    }
}
