package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.job.RunLock;
import dev.nqueens.query.OldRuns;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code prune --older-than 90d}: deletes the history of the runs that ended before then
 * ({@link OldRuns}), while no run holds the database.
 */
@Command(name = "prune", mixinStandardHelpOptions = true, versionProvider = Version.class,
        header = "Delete the history of runs that ended before a given age.",
        description = "Their rows in the batch_* tables, run_control, run_publication and partition_execution, and"
                + " the cluster workers not heard of since; never the latest run, the last completed one or an"
                + " unfinished one. Refused while a run (on H2: any process) holds the database.",
        footerHeading = "%nExamples:%n",
        footer = {"  ./nqueens prune --older-than 90d", "  ./nqueens prune --older-than 12h"})
final class PruneCommand implements Callable<Integer> {

    /** Writes rows of an existing database at this build's schema; no context. */
    static final Needs NEEDS = new Needs(Needs.Database.WRITE, false, false, false, false);

    @ParentCommand
    NqueensCommand nqueens;

    @Option(names = "--older-than", paramLabel = "AGE", required = true,
            description = "How long ago a run must have ended, e.g. 90d, 12h or 30m.")
    String olderThan;

    @Override
    public Integer call() {
        Duration age = age(olderThan);
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            // The lock's heartbeat runs on a thread and a connection of its own, beside the deletes.
            SingleConnectionDataSource lockConnection = session.database().writing().dataSource();
            try (RunLock.Held lock = new RunLock(lockConnection).acquire(session.console().err()::println)) {
                Instant cutoff = Instant.now().minus(age).truncatedTo(ChronoUnit.SECONDS);
                OldRuns.Pruned pruned = new OldRuns(session.dataSource()).prune(cutoff);
                report(pruned, cutoff, session.console().out());
                return ExitCode.OK;
            } finally {
                lockConnection.destroy();
            }
        }
    }

    /** A positive duration: {@code 90d}, {@code 12h}, {@code 30m}, or ISO-8601's {@code P90D}. */
    static Duration age(String text) {
        Duration age;
        try {
            age = DurationStyle.detectAndParse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("invalid value '" + text + "' for --older-than: an age such as 90d, 12h"
                    + " or 30m");
        }
        if (age.isZero() || age.isNegative()) {
            throw new InvalidInputException("invalid value '" + text + "' for --older-than: the age must be longer"
                    + " than zero");
        }
        return age;
    }

    private static void report(OldRuns.Pruned pruned, Instant cutoff, PrintStream out) {
        List<Long> runs = pruned.runs();
        String kept = "(the latest run, the last completed one and unfinished ones are kept)";
        if (runs.isEmpty()) {
            out.printf("No run that ended before %s may be deleted %s.%n", cutoff, kept);
        } else {
            out.printf("Deleted %d run%s that ended before %s: %s %s %s.%n", runs.size(), runs.size() == 1 ? "" : "s",
                    cutoff, runs.size() == 1 ? "run" : "runs", ranges(runs), kept);
        }
        out.println("Rows deleted:");
        pruned.rows().forEach((table, rows) -> out.printf("  %-29s %9d%n", table, rows));
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
