package dev.nqueens.cli;

import dev.nqueens.job.SizePlan;
import dev.nqueens.job.ShortRun;
import java.util.List;
import dev.nqueens.count.CountingEngine;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.StorageLimits;
import dev.nqueens.settings.StoredLevel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The launcher's offer to a command that runs the job: decide first in a quick JVM (the quick
 * compiler, no application context) whether the job is needed at all and how much heap it needs;
 * if it is, write the JVM options of the job's JVM to the file the launcher named and end with
 * {@link #EXIT}, and the launcher starts that JVM with the same command line. The options follow
 * from the settings and the command line alone, so the launcher remembers them and, the next time
 * nothing they come from has changed, starts the job's JVM at once; that JVM then takes the quick
 * one's decisions itself ({@link #remembered}). Started otherwise ({@code java -jar}), a command
 * does everything in its own JVM.
 */
final class Handoff {

    /** The environment variable naming the file for the options; set by the launcher only. */
    static final String FILE = "NQUEENS_HANDOFF";
    /** The environment variable naming the file of options the launcher started this JVM with, remembered. */
    static final String REMEMBERED = "NQUEENS_HANDOFF_REMEMBERED";
    /** "Start the job's JVM": between the jar and the launcher only, never the process's exit code. */
    static final int EXIT = 75;
    /** How a process killed by SIGKILL ends, as the launcher did. */
    private static final int KILLED = 137;
    /** Heap beside the engine's: Spring, Batch, H2's cache, a chunk of rows. */
    static final long BASE_HEAP = 256L << 20;

    private Handoff() {
    }

    /**
     * The file to write the options to, if the launcher offers a hand-off. The launcher waits for
     * this JVM instead of becoming it, so a signal that kills the launcher (SIGKILL, an OOM killer)
     * must end this JVM too: it halts when the launcher is gone.
     */
    static Optional<Path> offered(Console console) {
        Optional<Path> file = Optional.ofNullable(console.variables().get(FILE)).filter(name -> !name.isBlank())
                .map(Path::of);
        if (file.isPresent() && console == Console.systemConsole()) {
            ProcessHandle.current().parent().ifPresent(launcher -> launcher.onExit()
                    .thenRun(() -> Runtime.getRuntime().halt(KILLED)));
        }
        return file;
    }

    /**
     * For a command that runs the job for as long as it lives ({@code schedule}, {@code worker}): when the launcher offers it, reads and checks the settings here (bad ones
     * are reported by this quick JVM) and hands over with the options {@link #optionsFor} the settings.
     *
     * @return the exit code that asks the launcher to start the job's JVM, if it was offered
     */
    static Optional<Integer> forTheConfiguredSizes(Launch launch, Map<String, String> options) {
        Optional<Path> file = offered(launch.console());
        if (file.isEmpty()) {
            return Optional.empty();
        }
        try (Session session = launch.open(new Needs(Needs.Database.NONE, false, false, false, false), options)) {
            return Optional.of(handOver(file.get(), session.settings()));
        }
    }

    /** Whether the launcher started this JVM with options it remembered ({@link #checkRemembered}). */
    static boolean remembered(Console console) {
        String name = console.variables().get(REMEMBERED);
        return name != null && !name.isBlank();
    }

    /**
     * For the commands that hand over ({@code run}, {@code schedule}, {@code serve}, {@code worker})
     * when the launcher started this JVM with the options it remembered from an earlier hand-off
     * (it skips the quick JVM when the command line, the working directory, the environment and
     * the configuration files it looks at are unchanged): if the settings this JVM read need other
     * options (a setting from a file the launcher does not look at), says so in one line and forgets
     * them, so that the next start asks again. The command goes on with the options it has.
     */
    static void checkRemembered(Console console, NqueensProperties settings) {
        if (!remembered(console)) {
            return;
        }
        Path file = Path.of(console.variables().get(REMEMBERED));
        String needed = optionsFor(settings);
        String remembered;
        try {
            remembered = Files.readString(file);
        } catch (IOException e) {
            return; // gone since the launcher read it (another start forgot it): the next start asks again
        }
        if (remembered.equals(needed)) {
            return;
        }
        String forgetting;
        try {
            Files.deleteIfExists(file);
            forgetting = "the next start asks again";
        } catch (IOException e) {
            forgetting = "it cannot be forgotten (" + e.getMessage() + "): delete " + file;
        }
        console.err().printf("nqueens: started with %s, remembered from an earlier start, but its settings need %s;"
                + " %s%n", oneLine(remembered), oneLine(needed), forgetting);
    }

    /**
     * The options of the job's JVM: the heap the configured sizes need from scratch (for {@code run},
     * the most a run of its sizes can need, whatever is stored).
     */
    static String optionsFor(NqueensProperties settings) {
        return options(memoryFor(settings));
    }

    /**
     * The memory of a JVM that runs the job on the configured sizes from scratch (run's, schedule's,
     * worker's, a night of serve's) beside the base heap: the engine's for the largest counted size and the
     * enumeration's for the largest size stored row by row, with its young generation.
     */
    static ShortRun.JobMemory memoryFor(NqueensProperties settings) {
        StorageLimits limits = settings.storageLimits();
        List<SizePlan> all = BoardSizes.parse(settings.sizes()).sizes().stream()
                .map(n -> new SizePlan(n, limits.levelOf(n), SizePlan.Action.COMPUTE)).toList();
        return ShortRun.memoryNeeded(all, settings.effectiveThreads());
    }

    /**
     * Writes the options of the job's JVM for these settings ({@link #optionsFor}) and returns the
     * exit code that asks the launcher to start it.
     */
    static int handOver(Path file, NqueensProperties settings) {
        return handOver(file, optionsFor(settings));
    }

    private static int handOver(Path file, String options) {
        try {
            Files.writeString(file, options);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return EXIT;
    }

    /** The JVM options of a job's JVM with this memory beside the base heap, one per line. */
    static String options(ShortRun.JobMemory memory) {
        return "-Xmx" + (BASE_HEAP + memory.heap()) / (1 << 20) + "m\n"
                + (memory.young() > 0 ? "-Xmn" + memory.young() / (1 << 20) + "m\n" : "");
    }

    private static String oneLine(String options) {
        return options.strip().replace('\n', ' ');
    }
}
