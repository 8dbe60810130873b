package dev.nqueens.job;

import dev.nqueens.failure.BusyException;

/** Another run holds the database: this one must not start (exit 3). */
public final class RunInProgressException extends BusyException {

    public RunInProgressException(String message) {
        super(message);
    }
}
