package dev.nqueens.job;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.Failure;

/** Thrown when a computed size disagrees with the published counts: the job must fail loudly. */
public final class CountMismatchException extends Failure {

    public CountMismatchException(String message) {
        super(ExitCode.FAILED, message);
    }
}
