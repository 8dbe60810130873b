package dev.nqueens;

import dev.nqueens.cli.Console;
import dev.nqueens.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A command line run in the test's own JVM, through the same entry point as the jar's
 * ({@link Main#run}), with a working directory and environment variables of its own. Unless the
 * test gives its own, the database is an H2 file under the working directory and the reports go to
 * its {@code output/} (the JVM's own working directory is the project's).
 */
public final class InProcess {

    private InProcess() {}

    /** Runs {@code args} with the database and the reports under {@code workingDirectory}. */
    public static NqueensProcess.Result run(Path workingDirectory, String... args) {
        return run(workingDirectory, Map.of(), args);
    }

    /** Runs {@code args} with extra environment variables; the database and reports default to the working directory. */
    public static NqueensProcess.Result run(Path workingDirectory, Map<String, String> variables, String... args) {
        Map<String, String> environment = new HashMap<>(variables);
        environment.putIfAbsent(
                "SPRING_DATASOURCE_URL",
                TestDatabases.h2Url(workingDirectory.resolve("data/nqueens")) + ";DB_CLOSE_ON_EXIT=FALSE");
        environment.putIfAbsent(
                "NQUEENS_OUTPUT_DIR", workingDirectory.resolve("output").toString());
        return runExactly(workingDirectory, environment, args);
    }

    /** Runs {@code args} with exactly these environment variables. */
    public static NqueensProcess.Result runExactly(
            Path workingDirectory, Map<String, String> variables, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode;
        try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exitCode = Main.run(args, new Console(workingDirectory, variables, outStream, errStream));
        }
        return new NqueensProcess.Result(
                exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
