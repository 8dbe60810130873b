package dev.nqueens.failure;

/** A service the command needs cannot be used: the database or the broker, or no database yet (exit 4). */
public class UnavailableException extends Failure {

    public UnavailableException(String message) {
        super(ExitCode.UNAVAILABLE, message);
    }

    public UnavailableException(String message, Throwable cause) {
        super(ExitCode.UNAVAILABLE, message, cause);
    }
}
