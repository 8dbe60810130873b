package dev.nqueens.failure;

/**
 * A failure that ends a command with its exit code and one line that says what happened in the
 * product's words. Subclasses name the kinds; a cause, if any, stays for a debug log only.
 */
public class Failure extends RuntimeException {

    private final int exitCode;

    public Failure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public Failure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** The exit code the process ends with. */
    public int exitCode() {
        return exitCode;
    }

    /** The innermost cause of {@code failure} (itself if it has none). */
    public static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /** The first line of the innermost cause's message (its type's name if it has none). */
    public static String rootMessage(Throwable failure) {
        Throwable root = rootCause(failure);
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse(message);
    }
}
