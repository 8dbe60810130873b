package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.h2.SwitchingH2DataSource;
import dev.nqueens.h2.WholeFile;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.job.NightlyScheduler;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.batch.core.BatchStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code night} (not listed, not for users): one night of {@code serve}'s schedule, in a JVM of
 * its own that {@code serve} starts ({@link NightProcess}) with the heap and the optimizing compiler
 * the job needs, while {@code serve}'s own JVM stays small and quick to start. On an embedded H2 file
 * it serves {@code serve}'s reads while it holds the file; it writes the outcome for {@code serve}'s
 * log line, and stops at a chunk boundary when {@code serve} stops or is gone.
 */
@Command(name = "night", hidden = true, description = "One night of serve's schedule (started by serve).")
final class NightCommand implements Callable<Integer> {

    /** How long the night asks again for a file that a reading command has open. */
    static final long READERS_SECONDS = 30;

    @ParentCommand
    NqueensCommand nqueens;

    @Option(names = "--at", required = true, description = "The scheduled time (local, ISO).")
    LocalDateTime at;

    @Option(names = "--zone", required = true, description = "The schedule's zone.")
    ZoneId zone;

    @Option(names = "--serve", required = true, description = "The pid of serve.")
    long serve;

    @Option(names = "--outcome", required = true, description = "Where to write the outcome.")
    Path outcome;

    @Option(names = "--reads", description = "Where to write the URL serve reads through (an H2 file).")
    Path reads;

    @Override
    public Integer call() {
        try (Session job = openWaitingForReaders()) {
            NightlyRun run = job.bean(NightlyRun.class);
            AtomicBoolean ended = new AtomicBoolean();
            Runnable stop = stopper(run, ended, job.console().err());
            job.onStop(stop, null);
            // serve gone (killed): the night stops at a chunk boundary, as it would with serve stopped.
            Optional<ProcessHandle> parent = ProcessHandle.of(serve);
            parent.ifPresentOrElse(handle -> handle.onExit().thenRun(stop), stop);
            if (reads != null) {
                SwitchingH2DataSource file = job.beanOrElse(SwitchingH2DataSource.class, null);
                if (file == null) {
                    throw new IllegalStateException("the database is no longer the H2 file serve holds (the settings"
                            + " changed since serve started): restart serve");
                }
                file.serveReadsDuringRuns(reads, parent);
            }
            NightlyRun.Outcome result;
            try {
                result = run.run(NightlyScheduler.requestFor(job.settings()).at(at, zone));
            } finally {
                ended.set(true);
            }
            write(result, outcome);
            return result.completed() ? ExitCode.OK : ExitCode.FAILED;
        }
    }

    /**
     * The job's session. serve has closed the file for this JVM, but a reading command ({@code sql},
     * {@code show}) may have opened it read-only in between: the file is asked for again for a while
     * ({@value #READERS_SECONDS} s) before the night gives up (exit 3).
     */
    private Session openWaitingForReaders() {
        long deadline = System.nanoTime() + READERS_SECONDS * 1_000_000_000L;
        while (true) {
            try {
                return nqueens.launch().open(ServeCommand.NIGHT, Map.of());
            } catch (RuntimeException e) {
                if (Failures.of(e, nqueens.launch().database()).exitCode() != ExitCode.BUSY
                        || System.nanoTime() > deadline) {
                    throw e;
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the database", e);
            }
        }
    }

    /**
     * Stops the run at its next chunk boundary, once (under systemd both serve, which passes it on,
     * and this JVM get SIGTERM). Asked before the job has begun, it asks again until there is a job
     * to stop or the night has ended: the run would otherwise forget it.
     */
    private static Runnable stopper(NightlyRun run, AtomicBoolean ended, java.io.PrintStream err) {
        AtomicBoolean asked = new AtomicBoolean();
        return () -> {
            if (asked.getAndSet(true)) {
                return;
            }
            Thread asking = new Thread(() -> {
                try {
                    while (!ended.get()) {
                        if (run.stopRunning()) {
                            err.println("nqueens: stopping at the next chunk boundary; the next run resumes");
                            return;
                        }
                        Thread.sleep(100);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    // the context is closing: the night has ended
                }
            }, "nqueens-night-stop");
            asking.setDaemon(true);
            asking.start();
        };
    }

    /** The outcome as {@code serve}'s log line reports it: status, time, window, sizes published, failures. */
    static void write(NightlyRun.Outcome outcome, Path file) {
        Properties lines = new Properties();
        lines.setProperty("status", outcome.status().name());
        lines.setProperty("elapsed", Long.toString(outcome.elapsed().toMillis()));
        lines.setProperty("window-closed", Boolean.toString(outcome.windowClosed()));
        lines.setProperty("published", String.join(",", outcome.published().stream().map(String::valueOf).toList()));
        for (int i = 0; i < outcome.failures().size(); i++) {
            lines.setProperty("failure." + i, outcome.failures().get(i));
        }
        try {
            StringWriter text = new StringWriter();
            lines.store(text, null);
            WholeFile.write(file, text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The outcome a night's JVM wrote. */
    static NightlyRun.Outcome read(Path file) throws IOException {
        Properties lines = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            lines.load(reader);
        }
        Set<Integer> published = new TreeSet<>();
        Arrays.stream(lines.getProperty("published", "").split(",")).filter(n -> !n.isBlank())
                .forEach(n -> published.add(Integer.valueOf(n)));
        List<String> failures = new ArrayList<>();
        for (int i = 0; lines.containsKey("failure." + i); i++) {
            failures.add(lines.getProperty("failure." + i));
        }
        return outcome(BatchStatus.valueOf(lines.getProperty("status")),
                Duration.ofMillis(Long.parseLong(lines.getProperty("elapsed"))),
                Boolean.parseBoolean(lines.getProperty("window-closed")), published, failures);
    }

    /** An outcome with what {@code serve}'s log line needs. */
    static NightlyRun.Outcome outcome(BatchStatus status, Duration elapsed, boolean windowClosed, Set<Integer> published,
            List<String> failures) {
        return new NightlyRun.Outcome(status, List.of(), false, failures, elapsed, windowClosed, published, List.of(),
                List.of(), 0, false);
    }
}
