package dev.nqueens.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a command runs: its working directory ({@code config/} is read from it), its environment
 * variables and its two output streams. The process's own, except when a test runs a command in
 * its JVM.
 */
public record Console(Path workingDirectory, Map<String, String> variables, PrintStream out, PrintStream err) {

    public Console {
        variables = Map.copyOf(variables);
    }

    private static final Console SYSTEM =
            new Console(Path.of("").toAbsolutePath(), System.getenv(), System.out, System.err);

    /** This process's working directory, environment and standard streams. */
    public static Console system() {
        return SYSTEM;
    }
}
