package dev.nqueens.failure;

/** Bad input from the user or the settings: an option, a value, a setting, a folder or a port (exit 2). */
public class InvalidInputException extends Failure {

    public InvalidInputException(String message) {
        super(ExitCode.USAGE, message);
    }
}
