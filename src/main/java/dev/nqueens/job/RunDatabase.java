package dev.nqueens.job;

import java.util.function.Supplier;

/**
 * How a run gets the database for writing. Usually it simply has it; {@code serve} on an embedded
 * H2 file holds the file read-only between runs and reopens it for writing only while a run works.
 */
@FunctionalInterface
public interface RunDatabase {

    /** The database as configured: writable all along. */
    RunDatabase WRITABLE = new RunDatabase() {
        @Override
        public <T> T writableDuring(Supplier<T> run) {
            return run.get();
        }
    };

    /** Runs {@code run} with the database open for writing. */
    <T> T writableDuring(Supplier<T> run);
}
