package dev.nqueens.job;

/** Another run holds the database: this one must not start. */
public final class RunInProgressException extends RuntimeException {

    public RunInProgressException(String message) {
        super(message);
    }
}
