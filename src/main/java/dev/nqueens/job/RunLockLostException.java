package dev.nqueens.job;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.Failure;

/**
 * Another run took the run lock over while this one could not reach the database (its heartbeat
 * stopped): this run writes nothing more and ends (exit 1).
 */
public final class RunLockLostException extends Failure {

    public RunLockLostException(String message) {
        super(ExitCode.FAILED, message);
    }
}
