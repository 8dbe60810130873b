package dev.nqueens.failure;

import java.util.stream.Stream;
import org.springframework.core.NestedExceptionUtils;

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

    /**
     * {@code failure} and its causes, outermost first: for the questions Spring's
     * {@link NestedExceptionUtils} (the root) and {@code ExceptionTypeFilter} (a cause of a type)
     * do not answer, such as a cause of a type with a given state.
     */
    public static Stream<Throwable> causes(Throwable failure) {
        return Stream.iterate(failure, t -> t != null, t -> t.getCause() == t ? null : t.getCause());
    }

    /** The first line of the innermost cause's message (its type's simple name if it has none). */
    public static String rootMessage(Throwable failure) {
        Throwable root = NestedExceptionUtils.getMostSpecificCause(failure);
        return firstLine(root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage());
    }

    /** The first line of {@code failure}'s own message (its type's name if it has none). */
    public static String firstLine(Throwable failure) {
        return firstLine(failure.getMessage() == null ? failure.getClass().getName() : failure.getMessage());
    }

    /** The first line of {@code text}, empty if the text is. */
    public static String firstLine(String text) {
        return text.lines().findFirst().orElse("");
    }
}
