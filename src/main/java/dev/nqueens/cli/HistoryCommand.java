package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.query.QueryPrinter;
import dev.nqueens.query.ReadOnlyQuery;
import dev.nqueens.query.RunHistory;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code history}: the past runs, newest first. */
@Command(name = "history", mixinStandardHelpOptions = true, versionProvider = Version.class,
        header = "List past runs, newest first.",
        description = "Each run's start and end, status, the sizes asked for and those whose rows it computed and"
                + " published, rows written, seconds, and notes (sizes lowered on request or kept above their"
                + " settings). Runs with nothing to compute are folded into the line of the run before them.",
        footerHeading = "%nExamples:%n",
        footer = {"  ./nqueens history", "  ./nqueens history --limit 5 --format csv", "  ./nqueens history --all"})
final class HistoryCommand implements Callable<Integer> {

    static final Needs NEEDS = Needs.READING;

    @ParentCommand
    NqueensCommand nqueens;

    @Option(names = "--limit", paramLabel = "K", defaultValue = "20", description = "The last K lines (default: ${DEFAULT-VALUE}).")
    String limit;

    @Option(names = "--all", description = "Every run on a line of its own, those with nothing to compute too.")
    boolean all;

    @Option(names = "--format", paramLabel = "F", defaultValue = "table",
            description = "table, csv or json (default: ${DEFAULT-VALUE}).")
    String format;

    @Override
    public Integer call() {
        int runs = Options.positive("--limit", limit, "a whole number of runs >= 1");
        QueryPrinter.Format chosen = QueryPrinter.Format.valueOf(Options.format(format).toUpperCase(Locale.ROOT));
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            QueryPrinter printer = new QueryPrinter(session.console().out(), chosen);
            new RunHistory(new ReadOnlyQuery(session.dataSource())).lastRuns(runs, all, printer);
            printer.finish();
        }
        return ExitCode.OK;
    }
}
