package dev.nqueens.cli;

import dev.nqueens.h2.DatabaseServer;
import dev.nqueens.h2.SwitchingH2DataSource;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.job.RunRequest;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.SettingsLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.springframework.batch.core.BatchStatus;

/**
 * One night of {@code serve}'s schedule in a JVM of its own ({@code night}, {@link NightCommand}):
 * {@code serve}'s JVM has a small heap and the quick compiler alone, so that it answers within
 * seconds of its start; the night's JVM gets what the job needs, as the launcher gives a {@code run}:
 * the heap for the sizes configured tonight ({@link Handoff#memoryFor}), the optimizing compiler, the job's
 * collector settings. Its output goes to {@code serve}'s. On an embedded H2 file, {@code serve}
 * closes the file for it and reads through it meanwhile ({@link SwitchingH2DataSource#readingThroughNight}).
 */
final class NightProcess {

    /** How often to look whether the night's JVM has opened the file. */
    private static final Duration POLL = Duration.ofMillis(50);
    /** The launcher's options for the job's JVM (docs/performance.md), before the heap. */
    private static final List<String> JOB_OPTIONS = List.of("-XX:+UseSerialGC", "-Xmn16m",
            "-XX:PretenureSizeThreshold=512k");

    private final Console console;
    private final NqueensProperties settings;
    private final Optional<SwitchingH2DataSource> file;
    private final List<Thread> copiers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile Process running;
    private volatile boolean stopped;

    /**
     * @param file {@code serve}'s pool on an embedded H2 file, which the night's JVM takes over; empty
     *     for a database server (PostgreSQL), which both use at once
     */
    NightProcess(Console console, NqueensProperties settings, Optional<SwitchingH2DataSource> file) {
        this.console = console;
        this.settings = settings;
        this.file = file;
    }

    /** Runs the night and waits for it; the outcome its JVM wrote, or a failed one saying how it ended. */
    NightlyRun.Outcome run(RunRequest request) {
        Instant start = Instant.now();
        Path folder;
        try {
            folder = Files.createTempDirectory("nqueens-night");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the night: " + e.getMessage(), e);
        }
        try {
            Path outcome = folder.resolve("outcome");
            Path reads = folder.resolve("reads");
            List<String> command = command(request, outcome, file.isPresent() ? reads : null);
            int[] exit = new int[1];
            if (file.isPresent()) {
                file.get().readingThroughNight(() -> {
                    start(command);
                    return appeared(running, reads).map(NightProcess::url);
                });
                appeared(running, reads.resolveSibling("reads.ending"));
                file.get().readingTheFile(() -> {
                    touch(reads.resolveSibling("reads.released"));
                    exit[0] = waitFor(running);
                });
            } else {
                exit[0] = waitFor(start(command));
            }
            if (Files.exists(outcome)) {
                return NightCommand.read(outcome);
            }
            return NightCommand.outcome(BatchStatus.FAILED, Duration.between(start, Instant.now()), false, Set.of(),
                    List.of("the night's JVM ended with exit code " + exit[0] + " before it had an outcome"));
        } catch (IOException e) {
            throw new UncheckedIOException("the night's outcome is unreadable: " + e.getMessage(), e);
        } finally {
            running = null;
            deleteQuietly(folder);
        }
    }

    /** Stops the night at its next chunk boundary (SIGTERM to its JVM), and any night after it. */
    void stop() {
        stopped = true;
        Process process = running;
        if (process != null) {
            // SIGTERM through its handle: Process.destroy() would also close its output, the last lines lost.
            process.toHandle().destroy();
        }
    }

    private List<String> command(RunRequest request, Path outcome, Path reads) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JOB_OPTIONS);
        command.addAll(Handoff.options(Handoff.memoryFor(tonight())).lines().toList());
        // serve's own options (its archive, its logging, -D settings), but not its heap and compiler,
        // nor what listens on a port serve has (a debugger, JMX); the operator's options last, once,
        // as the launcher puts them: they win.
        String words = console.variables().getOrDefault("NQUEENS_JAVA_OPTS", "").strip();
        List<String> operator = words.isEmpty() ? List.of() : List.of(words.split("\\s+"));
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!(operator.contains(option) || listens(option) || option.startsWith("-Xmx")
                    || option.startsWith("-XX:TieredStopAtLevel") || option.startsWith("-XX:AOTCacheOutput")
                    || option.startsWith("-XX:ArchiveClassesAtExit"))) {
                command.add(option);
            }
        }
        operator.stream().filter(option -> !listens(option)).forEach(command::add);
        command.add("-D" + DatabaseServer.BIND_ADDRESS + "=127.0.0.1");
        // The launcher's jar (or `java -jar`'s fat jar) as serve was started: its manifest names Main.
        String classPath = System.getProperty("java.class.path");
        if (classPath.endsWith(".jar") && !classPath.contains(java.io.File.pathSeparator)) {
            command.addAll(List.of("-jar", classPath));
        } else {
            command.addAll(List.of("-cp", classPath, Main.class.getName()));
        }
        command.addAll(List.of("night", "--at", request.key().toString(), "--zone",
                settings.schedule().zoneId().getId(), "--serve", Long.toString(ProcessHandle.current().pid()),
                "--outcome", outcome.toString()));
        if (reads != null) {
            command.addAll(List.of("--reads", reads.toString()));
        }
        return command;
    }

    /**
     * The settings as they are tonight: the night's JVM reads them again (an operator may have
     * changed the sizes since serve started), and its heap follows them. Settings that no longer
     * read well: serve's, and the night's JVM says what is wrong with them.
     */
    private NqueensProperties tonight() {
        try {
            return SettingsLoader.bind(SettingsLoader.load(new SettingsLoader.Sources(console.workingDirectory(),
                    console.variables(), Map.of(), List.of())));
        } catch (RuntimeException e) {
            return settings;
        }
    }

    /** An option that makes a JVM listen on a port: serve's JVM has it, the night's would fail on it. */
    private static boolean listens(String option) {
        return option.startsWith("-agentlib:jdwp") || option.startsWith("-Xrunjdwp")
                || option.startsWith("-Dcom.sun.management.jmxremote.port")
                || option.startsWith("-Dcom.sun.management.jmxremote.rmi.port");
    }

    /** Starts the night's JVM as {@link #running}; stopped meanwhile, it is told at once. */
    private Process start(List<String> command) {
        if (stopped) {
            throw new IllegalStateException("serve is stopping");
        }
        ProcessBuilder builder = new ProcessBuilder(command).directory(console.workingDirectory().toFile());
        builder.environment().clear();
        builder.environment().putAll(console.variables());
        builder.environment().remove(Handoff.FILE);
        builder.environment().remove(Handoff.REMEMBERED);
        try {
            // serve's own output: the night writes to it directly, so that nothing is lost if serve
            // dies first; a test's console (a command run in its JVM) gets a copy.
            boolean own = console == Console.systemConsole();
            if (own) {
                builder.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
            }
            Process process = builder.start();
            running = process;
            if (!own) {
                copy(process.getInputStream(), console.out());
                copy(process.getErrorStream(), console.err());
            }
            if (stopped) {
                process.toHandle().destroy();
            }
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the night's JVM: " + e.getMessage(), e);
        }
    }

    /** The file {@code file}, once the night's JVM has written it; empty if it ended first. */
    private static Optional<Path> appeared(Process process, Path file) {
        try {
            while (process.isAlive()) {
                if (Files.exists(file)) {
                    return Optional.of(file);
                }
                Thread.sleep(POLL.toMillis());
            }
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static String url(Path reads) {
        try {
            return Files.readString(reads).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void touch(Path file) {
        try {
            Files.writeString(file, "");
        } catch (IOException e) {
            // the night waits for it a while, then ends all the same
        }
    }

    private int waitFor(Process process) {
        while (true) {
            try {
                int exit = process.waitFor();
                for (Thread copier : copiers) {
                    copier.join(Duration.ofSeconds(5).toMillis());
                }
                copiers.clear();
                return exit;
            } catch (InterruptedException e) {
                // serve waits for its night to end at a chunk boundary, as it would for one in its own JVM
                process.toHandle().destroy();
            }
        }
    }

    /** Copies the night's output to a test's console as it comes; {@link #waitFor} waits for the last of it. */
    private void copy(InputStream from, PrintStream to) {
        Thread copier = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (from) {
                for (int read; (read = from.read(buffer)) >= 0; ) {
                    to.write(buffer, 0, read);
                    to.flush();
                }
            } catch (IOException e) {
                // the night's JVM has ended
            }
        }, "nqueens-night-output");
        copier.setDaemon(true);
        copier.start();
        copiers.add(copier);
    }

    private static void deleteQuietly(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary folder
        }
    }
}
