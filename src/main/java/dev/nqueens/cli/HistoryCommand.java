package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.query.QueryPrinter;
import dev.nqueens.query.ReadOnlyQuery;
import dev.nqueens.query.RunHistory;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code history}: the past runs, newest first. */
@Command(
        name = "history",
        header = "List past runs, newest first.",
        description = "Each run's start and end, status, the sizes asked for and those whose rows it computed and"
                + " published, rows written, seconds, and notes (sizes lowered on request or kept above their"
                + " settings). Runs with nothing to compute are folded into the line of the run before them.",
        footerHeading = "%nExamples:%n",
        footer = {"  ./nqueens history", "  ./nqueens history --limit 5 --format csv", "  ./nqueens history --all"})
final class HistoryCommand extends Subcommand {

    static final Needs NEEDS = Needs.READING;

    @Option(
            names = "--limit",
            paramLabel = "K",
            defaultValue = "20",
            converter = Options.Positive.class,
            description = "The last K lines (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--all", description = "Every run on a line of its own, those with nothing to compute too.")
    boolean all;

    @Option(
            names = "--format",
            paramLabel = "F",
            defaultValue = "table",
            description = "table, csv or json (default: ${DEFAULT-VALUE}).")
    QueryPrinter.Format format;

    @Override
    public Integer call() {
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            QueryPrinter printer = new QueryPrinter(session.console().out(), format);
            new RunHistory(new ReadOnlyQuery(
                            session.dataSource(), session.settings().statementTimeout()))
                    .lastRuns(limit, all, printer);
            printer.finish();
        }
        return ExitCode.OK;
    }
}
