package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.job.RunRequest;
import dev.nqueens.job.SizePlan;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.Durations;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.StorageLimits;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.batch.core.BatchStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code run}: the nightly job once, now: solve, store, reduce, publish and export the configured sizes. */
@Command(
        name = "run",
        header = "Run the nightly job now: solve, store, reduce, publish, export.",
        description = "The configured sizes, at their storage levels; the options change this run only. Sizes"
                + " already stored at their level are kept; a size stored at a higher level is kept at it, unless"
                + " --lower names it; an unfinished run of the same request is resumed.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./nqueens run",
            "  ./nqueens run --sizes 4,8,10-12 --threads 2",
            "  ./nqueens run --sizes 1-21 --window 5h",
            "  ./nqueens run --sizes 14 --store-all-up-to 14",
            "  ./nqueens run --sizes 14 --lower 14          # back to the configured level: drops its solutions"
        })
final class RunCommand extends Subcommand {

    /** The job, on a migrated database, writing the reports (and in cluster mode if the settings say so). */
    static final Needs NEEDS = Needs.of(Needs.Database.MIGRATE, Needs.Part.JOB, Needs.Part.EXPORTS);

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    @Option(
            names = "--sizes",
            paramLabel = "LIST",
            converter = Options.Sizes.class,
            description =
                    "Board sizes, e.g. 1-12 or 4,8,10-12 (sizes 1..25; default: setting nqueens.sizes, ${bundle:default.nqueens.sizes}).")
    BoardSizes sizes;

    @Option(
            names = "--threads",
            paramLabel = "T",
            converter = Options.Positive.class,
            description =
                    "Partitions solved at once, 1 or more (default: setting nqueens.threads, ${bundle:default.nqueens.threads}; 0 = one per core).")
    Integer threads;

    @Option(
            names = "--store-all-up-to",
            paramLabel = "N",
            converter = Options.StorageLimit.class,
            description =
                    "Store every solution of sizes up to N; 0 = none (default: setting nqueens.storage.all-up-to, ${bundle:default.nqueens.storage.all-up-to}).")
    Integer allUpTo;

    @Option(
            names = "--store-fundamental-up-to",
            paramLabel = "N",
            converter = Options.StorageLimit.class,
            description =
                    "Store the class representatives of sizes up to N, larger sizes only their counts (default:"
                            + " setting nqueens.storage.fundamental-up-to, ${bundle:default.nqueens.storage.fundamental-up-to}).")
    Integer fundamentalUpTo;

    @Option(
            names = "--force",
            description = "Recompute sizes that are already stored (a size kept above its"
                    + " settings: at the level it is stored at).")
    boolean force;

    @Option(
            names = "--lower",
            paramLabel = "LIST",
            converter = Options.Sizes.class,
            description = "Sizes of this run stored at a higher level than their settings name, to lower to that"
                    + " level, dropping the rows it does not keep (the run says how many). Without it a run never"
                    + " drops stored rows.")
    BoardSizes lower;

    @Option(
            names = "--window",
            paramLabel = "DURATION",
            converter = Options.Length.class,
            description = "Take new work for at most this long (e.g. 5h, 90m); then stop and exit 5, and the next run"
                    + " goes on (default: setting nqueens.schedule.window, ${bundle:default.nqueens.schedule.window}).")
    Duration window;

    @Override
    public Integer call() {
        Map<String, String> options = options();
        try (Session session = nqueens.launch().open(NEEDS, options, (settings, database) -> request(settings))) {
            session.hold("run", "", "");
            session.onStop(() -> session.stopTheNight(session.bean(NightlyRun.class)), null);
            RunRequest request = request(session.settings());
            announce(session.settings(), request, session.console().out());
            return report(
                    session.bean(NightlyRun.class).run(request),
                    session.settings(),
                    session.bean(SolutionStore.class),
                    session.console());
        }
    }

    /**
     * The settings this run overrides. Levels nest (StorageLimits): --store-all-up-to alone raises
     * the representatives' limit with it.
     */
    Map<String, String> options() {
        Map<String, String> options = new LinkedHashMap<>();
        Optional.ofNullable(sizes).ifPresent(value -> options.put("nqueens.sizes", value.toString()));
        Optional.ofNullable(threads).ifPresent(value -> options.put("nqueens.threads", value.toString()));
        Optional.ofNullable(window).ifPresent(value -> options.put("nqueens.schedule.window", value.toString()));
        Optional.ofNullable(allUpTo).ifPresent(value -> options.put("nqueens.storage.all-up-to", value.toString()));
        Optional.ofNullable(fundamentalUpTo)
                .ifPresent(value -> options.put("nqueens.storage.fundamental-up-to", value.toString()));
        return options;
    }

    /**
     * The run the settings and options ask for.
     *
     * @throws InvalidInputException if {@code --lower} names a size the run does not include
     */
    private RunRequest request(NqueensProperties properties) {
        ZoneId zone = properties.schedule().zoneId();
        Instant start = Instant.now();
        BoardSizes sizes = BoardSizes.parse(properties.sizes());
        Set<Integer> lowered = lower == null ? Set.of() : Set.copyOf(lower.sizes());
        List<Integer> strangers = lowered.stream()
                .filter(n -> !sizes.sizes().contains(n))
                .sorted()
                .toList();
        if (!strangers.isEmpty()) {
            throw new InvalidInputException("invalid value '" + lower + "' for --lower: n = " + BoardSizes.of(strangers)
                    + " is not among the sizes of this run (" + sizes + ")");
        }
        return new RunRequest(
                sizes,
                properties.storageLimits(),
                force,
                lowered,
                LocalDateTime.ofInstant(start, zone),
                start,
                properties.schedule().timeWindow());
    }

    private static void announce(NqueensProperties properties, RunRequest request, PrintStream out) {
        ZoneId zone = properties.schedule().zoneId();
        out.printf(
                "Solving n = %s on %s; storing %s%s ...%n",
                request.sizes(),
                where(properties),
                describe(request.limits()),
                request.deadline()
                        .map(deadline -> "; new work until " + TIME.format(LocalDateTime.ofInstant(deadline, zone)))
                        .orElse(""));
    }

    private static int report(
            NightlyRun.Outcome outcome, NqueensProperties properties, SolutionStore store, Console console) {
        PrintStream out = console.out();
        PrintStream err = console.err();
        if (outcome.restarted()) {
            out.println("Restarted the unfinished run of the same sizes: finished sizes were kept.");
        }
        if (outcome.reruns() > 0) {
            out.printf(
                    "The run lost the database %d time(s) and went on each time from its last commits.%n",
                    outcome.reruns());
        }
        printSummaryTable(outcome, properties.storageLimits(), store, out);
        outcome.notes().forEach(note -> out.println("note: " + note));
        List<Integer> kept = outcome.plan().stream()
                .filter(size -> size.action() == SizePlan.Action.KEEP)
                .map(SizePlan::n)
                .toList();
        if (!kept.isEmpty()) {
            out.printf(
                    "note: kept above the level the settings name: n = %s; a run drops stored rows only when asked"
                            + " (--lower %s)%n",
                    BoardSizes.of(kept), BoardSizes.of(kept));
        }
        if (outcome.windowClosed()) {
            printWhatIsLeft(outcome, properties.schedule().timeWindow().orElseThrow(), out);
            List<String> failures = outcome.failures().stream()
                    .filter(failure -> !failure.contains("window closed"))
                    .toList();
            if (!failures.isEmpty()) {
                err.println("nqueens: " + String.join("; ", failures));
            }
            return ExitCode.WINDOW_CLOSED;
        }
        if (!outcome.completed()) {
            err.println("nqueens: the run " + (outcome.status() == BatchStatus.STOPPED ? "stopped" : "failed")
                    + (outcome.failures().isEmpty() ? "" : ": " + String.join("; ", outcome.failures()))
                    + (String.join("", outcome.failures()).endsWith("the next run resumes")
                            ? ""
                            : "; the next run resumes it"));
            return outcome.serviceLost() ? ExitCode.UNAVAILABLE : ExitCode.FAILED;
        }
        if (outcome.computedSizes().isEmpty()) {
            out.println("Every size was already stored; the reports are up to date.");
        }
        out.printf(
                "Job COMPLETED in %s; reports in %s%n",
                Durations.format(outcome.elapsed().toMillis() / 1000.0), properties.outputDir());
        return ExitCode.OK;
    }

    private static String where(NqueensProperties properties) {
        return properties.clusterMode() ? "the cluster's workers" : properties.effectiveThreads() + " thread(s)";
    }

    /** After a closed window: per size not finished, how far it has got and how many more such nights it needs. */
    private static void printWhatIsLeft(NightlyRun.Outcome outcome, Duration window, PrintStream out) {
        out.printf(
                "The %s time window closed after %s: the run stopped taking new work; the next run goes on"
                        + " where it stopped.%n",
                Durations.format(window.toSeconds()),
                Durations.format(outcome.elapsed().toMillis() / 1000.0));
        if (!outcome.published().isEmpty()) {
            out.printf("  published in this run: n = %s%n", BoardSizes.of(outcome.published()));
        }
        for (NightlyRun.SizeProgress size : outcome.unfinished()) {
            double tonight = size.after() - size.before();
            String nights = tonight <= 0
                    ? "not reached tonight; waits for the sizes before it"
                    : String.format(
                            "about %d more night(s) like this one", (long) Math.ceil((1 - size.after()) / tonight));
            out.printf(
                    "  n=%d: %.1f%% done (%+.1f%% tonight)%s: %s%n",
                    size.n(),
                    100 * size.after(),
                    100 * tonight,
                    size.description().isEmpty() ? "" : ", " + size.description(),
                    nights);
        }
    }

    private static String describe(StorageLimits limits) {
        return "every solution up to n=" + limits.allUpTo() + ", class representatives up to n="
                + limits.fundamentalUpTo() + ", counts beyond";
    }

    /**
     * One row per size of the plan, from what is published now. A size the run was to compute but
     * did not finish (the run failed or its window closed) shows the row published before, if any,
     * marked "not recomputed": its values are not this run's.
     */
    private static void printSummaryTable(
            NightlyRun.Outcome outcome, StorageLimits settings, SolutionStore store, PrintStream out) {
        java.util.Set<Integer> unfinished = new java.util.HashSet<>();
        outcome.unfinished().forEach(size -> unfinished.add(size.n()));
        out.printf("%4s %20s %16s %12s %10s%n", "n", "solutions", "fundamental", "stored", "time");
        for (SizePlan size : outcome.plan()) {
            Optional<BoardSummary> summary = store.summary(size.n());
            if (summary.isEmpty()) {
                out.printf("%4d %20s %16s %12s %10s%n", size.n(), "-", "-", "-", "not done");
                continue;
            }
            BoardSummary row = summary.get();
            String time = unfinished.contains(size.n())
                    ? "not recomputed"
                    : switch (size.action()) {
                        case SKIP -> "kept";
                        case KEEP -> "kept at " + row.stored() + " (settings: " + settings.levelOf(size.n()) + ")";
                        case DOWNGRADE -> "lowered";
                        default -> Durations.format(row.elapsedMs() / 1000.0);
                    };
            out.printf(
                    "%4d %20s %16s %12s %10s%n",
                    size.n(),
                    Durations.count(row.totalSolutions()),
                    Durations.count(row.fundamentalSolutions()),
                    row.stored(),
                    time);
        }
    }
}
