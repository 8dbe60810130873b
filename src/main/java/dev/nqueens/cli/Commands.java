package dev.nqueens.cli;

import dev.nqueens.cluster.ClusterStatus;
import dev.nqueens.cluster.PartitionWorker;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.job.NightlyScheduler;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.job.RunRequest;
import dev.nqueens.job.SizePlan;
import dev.nqueens.settings.StorageLimits;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SchemaCheck;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.StoredLevel;
import dev.nqueens.h2.DatabaseServer;
import dev.nqueens.query.QueryPrinter;
import dev.nqueens.query.ReadOnlyQuery;
import dev.nqueens.query.RunHistory;
import dev.nqueens.verify.StoredDataVerifier;
import dev.nqueens.verify.VerificationReport;
import dev.nqueens.web.Serve;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/** Carries out a parsed {@link Invocation} inside the application context. */
@Component
public class Commands {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    private final NightlyRun nightlyRun;
    private final SolutionStore store;
    private final NqueensProperties properties;
    private final StoredDataVerifier verifier;
    private final ReadOnlyQuery readOnlyQuery;
    private final RunHistory history;
    private final NightlyScheduler scheduler;
    private final DatabaseServer databaseServer;
    private final ObjectProvider<PartitionWorker> partitionWorker;
    private final ObjectProvider<ClusterStatus> clusterStatus;
    private final ObjectProvider<Flyway> flyway;
    private final ObjectProvider<Serve> web;

    Commands(NightlyRun nightlyRun, SolutionStore store, NqueensProperties properties, StoredDataVerifier verifier,
            ReadOnlyQuery readOnlyQuery, RunHistory history, NightlyScheduler scheduler,
            DatabaseServer databaseServer, ObjectProvider<PartitionWorker> partitionWorker,
            ObjectProvider<ClusterStatus> clusterStatus, ObjectProvider<Flyway> flyway, ObjectProvider<Serve> web) {
        this.partitionWorker = partitionWorker;
        this.clusterStatus = clusterStatus;
        this.flyway = flyway;
        this.web = web;
        this.scheduler = scheduler;
        this.databaseServer = databaseServer;
        this.nightlyRun = nightlyRun;
        this.store = store;
        this.properties = properties;
        this.verifier = verifier;
        this.readOnlyQuery = readOnlyQuery;
        this.history = history;
    }

    /** Runs {@code count}: no Spring context, no database. */
    public static int count(Invocation invocation, PrintStream out, PrintStream err) {
        return CountCommand.run(invocation.size(), invocation.threads(), out, err);
    }

    /** Runs the command, printing to {@code out} and {@code err}; returns the exit code. */
    public int execute(Invocation invocation, PrintStream out, PrintStream err) {
        return switch (invocation.command()) {
            case Invocation.RUN -> run(invocation, out, err);
            case Invocation.SHOW -> show(invocation, out, err);
            case Invocation.VERIFY -> verify(out);
            case Invocation.SCHEDULE -> schedule(out);
            case Invocation.DB_SERVER -> serve(out, err);
            case Invocation.WORKER -> worker(out, err);
            case Invocation.CLUSTER -> cluster(out);
            case Invocation.SERVE -> web.getObject().serveUntilStopped(out);
            case Invocation.SQL -> query(out, err, invocation.format(),
                    printer -> readOnlyQuery.run(invocation.statement(), printer));
            case Invocation.HISTORY -> query(out, err, invocation.format(),
                    printer -> history.lastRuns((int) invocation.limit(), printer));
            default -> throw new IllegalArgumentException("unknown command " + invocation.command());
        };
    }

    private int run(Invocation invocation, PrintStream out, PrintStream err) {
        BoardSizes sizes = BoardSizes.parse(properties.sizes());
        StorageLimits limits = properties.storageLimits();
        Optional<Duration> window = Optional.ofNullable(properties.schedule()).map(NqueensProperties.Schedule::window);
        ZoneId zone = properties.schedule() == null ? ZoneId.systemDefault() : properties.schedule().zoneId();
        out.printf("Solving n = %s on %s; storing %s%s ...%n", sizes, where(), describe(limits),
                window.map(w -> "; new work until " + TIME.format(LocalDateTime.now(zone).plus(w))).orElse(""));
        Instant start = Instant.now();
        NightlyRun.Outcome outcome = nightlyRun.run(new RunRequest(sizes, limits, invocation.force(),
                LocalDateTime.ofInstant(start, zone), start, window));
        if (outcome.restarted()) {
            out.println("Restarted the unfinished run of the same sizes: finished sizes were kept.");
        }
        printSummaryTable(outcome.plan(), out);
        outcome.notes().forEach(note -> out.println("note: " + note));
        if (outcome.windowClosed()) {
            printWhatIsLeft(outcome, window.orElseThrow(), out);
            outcome.failures().stream().filter(failure -> !failure.contains("window closed"))
                    .forEach(failure -> err.println("nqueens: " + failure));
            return ExitCodes.WINDOW_CLOSED;
        }
        if (!outcome.completed()) {
            outcome.failures().forEach(failure -> err.println("nqueens: " + failure));
            err.printf("nqueens: the job ended %s; the next run resumes it%n", outcome.status());
            return ExitCodes.FAILED;
        }
        if (outcome.computedSizes().isEmpty()) {
            out.println("Every size was already stored; reports exported again.");
        }
        out.printf("Job COMPLETED in %.1f s; reports in %s%n", outcome.elapsed().toMillis() / 1000.0,
                properties.outputDir());
        return ExitCodes.OK;
    }

    private String where() {
        return properties.cluster() != null && properties.cluster().enabled() ? "the cluster's workers"
                : properties.effectiveThreads() + " thread(s)";
    }

    /** After a closed window: per size not finished, how far it has got and how many more such nights it needs. */
    private static void printWhatIsLeft(NightlyRun.Outcome outcome, Duration window, PrintStream out) {
        out.printf("The %s time window closed after %.1f s: the run stopped taking new work; the next run goes on"
                + " where it stopped.%n", window, outcome.elapsed().toMillis() / 1000.0);
        if (!outcome.published().isEmpty()) {
            out.printf("  published in this run: n = %s%n", BoardSizes.of(outcome.published()));
        }
        for (NightlyRun.SizeProgress size : outcome.unfinished()) {
            double tonight = size.after() - size.before();
            String nights = tonight <= 0 ? "not reached tonight; waits for the sizes before it"
                    : String.format("about %d more night(s) like this one", (long) Math.ceil((1 - size.after()) / tonight));
            out.printf("  n=%d: %.1f%% done (%+.1f%% tonight)%s: %s%n", size.n(), 100 * size.after(), 100 * tonight,
                    size.description().isEmpty() ? "" : ", " + size.description(), nights);
        }
    }

    private static String describe(StorageLimits limits) {
        return "every solution up to n=" + limits.allUpTo() + ", class representatives up to n="
                + limits.fundamentalUpTo() + ", counts beyond";
    }

    private void printSummaryTable(List<SizePlan> plan, PrintStream out) {
        out.printf("%4s %20s %16s %12s %10s%n", "n", "solutions", "fundamental", "stored", "time");
        for (SizePlan size : plan) {
            Optional<BoardSummary> summary = store.summary(size.n());
            if (summary.isEmpty()) {
                out.printf("%4d %20s %16s %12s %10s%n", size.n(), "-", "-", "-", "not done");
                continue;
            }
            BoardSummary row = summary.get();
            String time = switch (size.action()) {
                case SKIP -> "kept";
                case DOWNGRADE -> "reduced";
                default -> String.format("%.2f s", row.elapsedMs() / 1000.0);
            };
            out.printf("%4d %20d %16d %12s %10s%n", size.n(), row.totalSolutions(), row.fundamentalSolutions(),
                    row.stored(), time);
        }
    }

    private static int query(PrintStream out, PrintStream err, String format,
            java.util.function.Consumer<QueryPrinter> body) {
        QueryPrinter.Format chosen = QueryPrinter.Format.valueOf(format.toUpperCase(java.util.Locale.ROOT));
        try (QueryPrinter printer = new QueryPrinter(out, chosen)) {
            body.accept(printer);
        } catch (IllegalArgumentException e) {
            err.println("nqueens: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        return ExitCodes.OK;
    }

    private int schedule(PrintStream out) {
        scheduler.runForever(properties, out);
        return ExitCodes.OK;
    }

    private int serve(PrintStream out, PrintStream err) {
        try {
            databaseServer.serve(out);
        } catch (IllegalArgumentException e) {
            err.println("nqueens: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return ExitCodes.OK;
    }

    private int worker(PrintStream out, PrintStream err) {
        return partitionWorker.getObject().run(properties.effectiveThreads(), version(), out, err);
    }

    private int cluster(PrintStream out) {
        clusterStatus.getObject().print(out);
        return ExitCodes.OK;
    }

    /** {@code nqueens 1.0.0, schema 11}: what a worker runs, as {@code cluster} shows it. */
    private String version() {
        String build = Optional.ofNullable(Commands.class.getPackage().getImplementationVersion()).orElse("dev");
        String schema = flyway.stream().findFirst().flatMap(f -> SchemaCheck.latestResolved(f.info()))
                .map(Object::toString).orElse("?");
        return "nqueens " + build + ", schema " + schema;
    }

    private int verify(PrintStream out) {
        VerificationReport report = verifier.verify(Path.of(properties.outputDir()));
        out.print(report.render());
        return report.allPassed() ? ExitCodes.OK : ExitCodes.FAILED;
    }

    private int show(Invocation invocation, PrintStream out, PrintStream err) {
        int n = invocation.size();
        Optional<BoardSummary> summary = store.summary(n);
        if (summary.isEmpty()) {
            err.printf("nqueens: n=%d has not been solved yet; run: ./nqueens run --sizes %d%n", n, n);
            return ExitCodes.FAILED;
        }
        BoardSummary row = summary.get();
        if (invocation.fundamentalOnly()) {
            if (row.stored() == StoredLevel.COUNT) {
                err.printf("nqueens: n=%d is stored as counts only; no representatives to show%n", n);
                return ExitCodes.FAILED;
            }
            store.forEachFundamental(n, invocation.limit(), rep -> printSolution(out, rep.classOrdinal(),
                    rep.placement(), String.format("  (orbit %d, %s)", rep.orbitSize(), rep.symmetry()),
                    invocation.boards()));
        } else {
            if (row.stored() != StoredLevel.ALL) {
                err.printf("nqueens: n=%d is stored as %s; use --fundamental or the counts below%n", n,
                        row.stored());
                out.println(totals(row));
                return ExitCodes.FAILED;
            }
            store.forEachSolution(n, invocation.limit(), solution -> printSolution(out, solution.ordinal(),
                    solution.placement(), "", invocation.boards()));
        }
        out.println(totals(row));
        return ExitCodes.OK;
    }

    private static String totals(BoardSummary row) {
        return String.format("n=%d: %d solutions, %d fundamental", row.n(), row.totalSolutions(),
                row.fundamentalSolutions());
    }

    private static void printSolution(PrintStream out, long number, String placement, String note, boolean board) {
        out.printf("No. %d: %s%s%n", number, placement, note);
        if (board) {
            out.print(Boards.render(placement));
            out.println();
        }
    }
}
