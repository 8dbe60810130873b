package dev.nqueens;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.springframework.util.FileSystemUtils;

/**
 * The program running as a separate process in a given working directory, started as a user (or
 * cron, or systemd) starts it: through the launcher {@code ./nqueens}, which runs the packaged jar
 * unpacked, with its class-data archive and the JVM options of each command (and, for {@code run},
 * a quick look before the job's JVM). Its output is collected line by line so a test can act when
 * a line appears.
 */
public final class NqueensProcess {

    public static final Path JAR = Path.of("target", "nqueens.jar").toAbsolutePath();
    /** The launcher at the project's root. */
    public static final Path LAUNCHER = Path.of("nqueens").toAbsolutePath();
    /**
     * The JVM option the tests add to the launcher's (through {@code NQUEENS_JAVA_OPTS}, unless a test
     * sets its own): the quick compiler alone. The processes of a test are short, the optimizing
     * compiler costs them more CPU than it saves, and the suite is CPU-bound (docs/development.md).
     * The options the product runs with are measured by the benchmarks.
     */
    static final String QUICK_COMPILER = "-XX:TieredStopAtLevel=1";
    /**
     * What the tests give their processes: the quick compiler, with one compiler thread. A short
     * process spends much of its CPU compiling; one thread compiles less of what is not yet hot when
     * the process ends.
     */
    static final String TEST_OPTIONS = QUICK_COMPILER + " -XX:CICompilerCount=1";

    /**
     * {@code environment} with the product's own JVM options instead of {@link #TEST_OPTIONS}, for the
     * processes that count n = 17-18 for seconds, where the optimizing compiler pays for itself.
     */
    static java.util.Map<String, String> withProductOptions(java.util.Map<String, String> environment) {
        java.util.Map<String, String> product = new java.util.HashMap<>(environment);
        product.put("NQUEENS_JAVA_OPTS", "");
        return product;
    }

    /** How a finished process ended. */
    public record Result(int exitCode, String out, String err) {}

    /**
     * With {@code NQUEENS_TEST_TRACE} set, each process says on the test JVM's standard error, as it
     * ends, how long it took, how it ended, and which test started it: where the suite's time goes
     * (docs/development.md).
     */
    private static final boolean TRACE = System.getenv("NQUEENS_TEST_TRACE") != null;

    private final Process process;
    private final long started;
    private final String startedBy;
    private final List<String> outLines = new ArrayList<>();
    private final List<String> errLines = new ArrayList<>();
    private final Thread outReader;
    /** Whether standard output has ended: set, like its lines, under the lock of {@code outLines}. */
    private boolean outEnded;

    private final Thread errReader;

    /**
     * The launcher unpacks the jar and trains its class-data archive at its first start after a
     * build, which takes a while: done once here, before any test measures how long a start takes
     * (the commands' archive with {@code --version}, the reading commands' with {@code history} in an
     * empty folder, which then ends at once: no database).
     */
    private static synchronized void prepareTheLauncher() throws IOException {
        if (prepared) {
            return;
        }
        Path empty = Files.createTempDirectory("nqueens-launcher");
        try {
            for (String command : List.of("--version", "history")) {
                ProcessBuilder builder = new ProcessBuilder(LAUNCHER.toString(), command)
                        .directory(empty.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
                builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
                Process warmUp = builder.start();
                if (!warmUp.waitFor(15, TimeUnit.MINUTES)) {
                    warmUp.destroyForcibly();
                    throw new IOException("the launcher did not get ready within 15 minutes");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the launcher got ready", e);
        } finally {
            FileSystemUtils.deleteRecursively(empty);
        }
        prepared = true;
    }

    private static boolean prepared;

    /**
     * Every process a test started: those a failed test left running (a db-server, a worker) are
     * killed, with what they started, when the test JVM ends, so that no run outlives its suite.
     */
    private static final java.util.Set<Process> STARTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> STARTED.stream().filter(Process::isAlive).forEach(left -> {
                            left.descendants().forEach(ProcessHandle::destroyForcibly);
                            left.destroyForcibly();
                        }),
                        "nqueens-test-processes"));
    }

    private NqueensProcess(Path workingDirectory, java.util.Map<String, String> environment, String... args)
            throws IOException {
        prepareTheLauncher();
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("NQUEENS_JAVA_OPTS", TEST_OPTIONS);
        builder.environment().putAll(environment);
        process = builder.start();
        started = System.nanoTime();
        startedBy = TRACE ? testMethod() + ": " + String.join(" ", args) : null;
        STARTED.add(process);
        outReader = collect(
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)),
                outLines,
                () -> outEnded = true);
        errReader = collect(
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)),
                errLines,
                () -> {});
    }

    /** The test method that is starting a process ({@code ReliabilityFunctionalTests.killed…}), for the trace. */
    private static String testMethod() {
        return StackWalker.getInstance()
                .walk(frames -> frames.filter(frame -> frame.getClassName().endsWith("Tests"))
                        .findFirst()
                        .map(frame -> frame.getClassName().replace("dev.nqueens.", "") + "." + frame.getMethodName())
                        .orElse("?"));
    }

    public static NqueensProcess start(Path workingDirectory, String... args) throws IOException {
        return new NqueensProcess(workingDirectory, java.util.Map.of(), args);
    }

    /** Starts the program with extra environment variables (e.g. SPRING_DATASOURCE_URL). */
    public static NqueensProcess start(Path workingDirectory, java.util.Map<String, String> environment, String... args)
            throws IOException {
        return new NqueensProcess(workingDirectory, environment, args);
    }

    /** Starts the program and waits for it to end (at most five minutes). */
    public static Result run(Path workingDirectory, String... args) throws IOException, InterruptedException {
        return start(workingDirectory, args).waitFor(Duration.ofMinutes(5));
    }

    /** Starts the program with extra environment variables and waits for it to end. */
    public static Result run(Path workingDirectory, java.util.Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        return start(workingDirectory, environment, args).waitFor(Duration.ofMinutes(5));
    }

    /**
     * Waits until a line of standard output matches.
     *
     * @throws AssertionError if the output ends or the time passes first
     */
    public String awaitLine(Predicate<String> wanted, Duration timeout) throws InterruptedException {
        return awaitLineAfter(0, wanted, timeout);
    }

    /** How many lines of standard output it has printed so far: a mark for {@link #awaitLineAfter}. */
    public int lineCount() {
        synchronized (outLines) {
            return outLines.size();
        }
    }

    /**
     * Waits until a line of standard output after the first {@code mark} lines matches: a line printed
     * after something the test did or saw.
     *
     * @throws AssertionError if the output ends or the time passes first
     */
    public String awaitLineAfter(int mark, Predicate<String> wanted, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (outLines) {
            for (int seen = mark; ; ) {
                for (; seen < outLines.size(); seen++) {
                    if (wanted.test(outLines.get(seen))) {
                        return outLines.get(seen);
                    }
                }
                if (outEnded) {
                    throw new AssertionError("the process ended before the line appeared; out: " + text(outLines)
                            + " err: " + text(errLines));
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no such line within " + timeout + "; out: " + text(outLines));
                }
                // Woken by each line the reader adds, and by the end of the output.
                TimeUnit.NANOSECONDS.timedWait(outLines, left);
            }
        }
    }

    /** The first line of standard output after the first {@code mark} lines that matches, if any yet. */
    public java.util.Optional<String> lineAfter(int mark, Predicate<String> wanted) {
        synchronized (outLines) {
            return outLines.subList(Math.min(mark, outLines.size()), outLines.size()).stream()
                    .filter(wanted)
                    .findFirst();
        }
    }

    /**
     * Whether a progress line ({@code   12.0 s: n=13 4% (500/73,712 solutions stored), …}) shows
     * some of size {@code n}'s work done.
     */
    public static boolean showsProgress(String line, int n) {
        return java.util.regex.Pattern.compile("[:,] n=" + n + " \\d+% \\(0*[1-9][\\d,]*/")
                .matcher(line)
                .find();
    }

    /** SIGKILL: the process dies at once, as in a power cut. */
    public Result kill() throws InterruptedException {
        process.destroyForcibly();
        return waitFor(Duration.ofMinutes(1));
    }

    /**
     * SIGTERM: as a service manager stopping it. Sent through the process handle, which (unlike
     * {@link Process#destroy()}) leaves the pipes open, so what the program prints while it stops is kept.
     */
    public Result terminate() throws InterruptedException {
        process.toHandle().destroy();
        return waitFor(Duration.ofMinutes(3));
    }

    /** The process id: the launcher's, which the JVM it runs takes over ({@code exec}). */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** What it has printed on standard output so far. */
    public String output() {
        return text(outLines);
    }

    /** What it has printed on standard error so far. */
    public String errors() {
        return text(errLines);
    }

    public Result waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the process did not end within " + timeout + "; out: " + text(outLines));
        }
        outReader.join();
        errReader.join();
        if (TRACE) {
            System.err.printf(
                    "nqueens-test-trace %.1f s, exit %d, %s%n",
                    (System.nanoTime() - started) / 1e9, process.exitValue(), startedBy);
        }
        return new Result(process.exitValue(), text(outLines), text(errLines));
    }

    /** Reads lines into {@code lines}, waking those waiting on it at each line and at the end ({@code atEnd}). */
    private static Thread collect(BufferedReader reader, List<String> lines, Runnable atEnd) {
        Thread thread = new Thread(() -> {
            try (reader) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    synchronized (lines) {
                        lines.add(line);
                        lines.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process ended
            } finally {
                synchronized (lines) {
                    atEnd.run();
                    lines.notifyAll();
                }
            }
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static String text(List<String> lines) {
        synchronized (lines) {
            StringBuilder text = new StringBuilder();
            lines.forEach(line -> text.append(line).append('\n'));
            return text.toString();
        }
    }
}
