package dev.nqueens.cli;

/** Bad input from the user or the settings: reported as one line with exit code 2. */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
