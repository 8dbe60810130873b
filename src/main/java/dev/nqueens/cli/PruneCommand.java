package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.job.RunLock;
import dev.nqueens.query.OldRuns;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code prune --older-than 90d}: deletes the history of the runs that ended before then
 * ({@link OldRuns}), while no run holds the database; with {@code --dry-run} lists what it would
 * delete and deletes nothing. A dry run writes nothing, so it takes no run lock and reads the
 * database as the reading commands do (also while {@code serve} holds the H2 file): what it lists
 * is the history at that moment, and the prune that follows selects again by the same rules.
 */
@Command(
        name = "prune",
        header = "Delete the history of runs that ended before a given age.",
        description = "Their rows in the batch_* tables, run_control, run_publication and partition_execution, and"
                + " the cluster workers not heard of since; never the latest run, the last completed one or an"
                + " unfinished one. Refused while a run (on H2: any process) holds the database. With --dry-run it"
                + " lists the runs and the rows per table it would delete, and deletes nothing.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./nqueens prune --older-than 90d --dry-run    (lists what it would delete)",
            "  ./nqueens prune --older-than 90d",
            "  ./nqueens prune --older-than 2w"
        })
final class PruneCommand extends Subcommand {

    /** Writes rows of an existing database at this build's schema; no context. */
    static final Needs NEEDS = Needs.of(Needs.Database.WRITE);

    /** A dry run only reads. */
    static final Needs DRY_RUN_NEEDS = Needs.READING;

    @Option(
            names = "--older-than",
            paramLabel = "AGE",
            required = true,
            converter = Options.Length.class,
            description = "How long ago a run must have ended: a whole number and a unit s, m, h, d or w (90d, 2w,"
                    + " 12h), or ISO-8601 (P90D); a bare number is refused.")
    Duration olderThan;

    @Option(names = "--dry-run", description = "List the runs and the rows per table it would delete; delete nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
        if (dryRun) {
            try (Session session = nqueens.launch().open(DRY_RUN_NEEDS, Map.of())) {
                Instant cutoff = Instant.now().minus(olderThan).truncatedTo(ChronoUnit.SECONDS);
                report(
                        new OldRuns(session.dataSource()).dryRun(cutoff),
                        cutoff,
                        true,
                        session.console().out());
                return ExitCode.OK;
            }
        }
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            // The lock's heartbeat runs on a thread and a connection of its own, beside the deletes.
            SingleConnectionDataSource lockConnection =
                    session.database().writing().dataSource();
            try (RunLock.Held lock =
                    new RunLock(lockConnection).acquire(session.console().err()::println)) {
                Instant cutoff = Instant.now().minus(olderThan).truncatedTo(ChronoUnit.SECONDS);
                OldRuns.Pruned pruned = new OldRuns(session.dataSource()).prune(cutoff);
                report(pruned, cutoff, false, session.console().out());
                return ExitCode.OK;
            } finally {
                lockConnection.destroy();
            }
        }
    }

    private static void report(OldRuns.Pruned pruned, Instant cutoff, boolean dryRun, PrintStream out) {
        List<Long> runs = pruned.runs();
        String kept = "(the latest run, the last completed one and unfinished ones are kept)";
        if (runs.isEmpty()) {
            out.printf("No run that ended before %s may be deleted %s.%n", cutoff, kept);
        } else {
            out.printf(
                    "%s %d run%s that ended before %s: %s %s %s.%n",
                    dryRun ? "Would delete" : "Deleted",
                    runs.size(),
                    runs.size() == 1 ? "" : "s",
                    cutoff,
                    runs.size() == 1 ? "run" : "runs",
                    ranges(runs),
                    kept);
        }
        out.println(dryRun ? "Rows it would delete:" : "Rows deleted:");
        pruned.rows().forEach((table, rows) -> out.printf("  %-29s %9d%n", table, rows));
        if (dryRun) {
            out.println("Dry run: nothing was deleted.");
        }
    }

    /** Ascending ids with runs of consecutive ones collapsed: {@code 1-3, 7}. */
    static String ranges(List<Long> ids) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < ids.size(); i++) {
            int j = i;
            while (j + 1 < ids.size() && ids.get(j + 1) == ids.get(j) + 1) {
                j++;
            }
            text.append(text.length() > 0 ? ", " : "").append(ids.get(i)).append(j > i ? "-" + ids.get(j) : "");
            i = j;
        }
        return text.toString();
    }
}
