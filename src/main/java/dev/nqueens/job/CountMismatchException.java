package dev.nqueens.job;

/** Thrown when a computed size disagrees with the published counts: the job must fail loudly. */
public final class CountMismatchException extends RuntimeException {

    public CountMismatchException(String message) {
        super(message);
    }
}
