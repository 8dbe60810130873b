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
        description = "Each run's start and end, status, the sizes asked for and published, rows written and"
                + " seconds.",
        footerHeading = "%nExamples:%n",
        footer = {"  ./nqueens history", "  ./nqueens history --limit 5 --format csv"})
final class HistoryCommand implements Callable<Integer> {

    static final Needs NEEDS = Needs.READING;

    @ParentCommand
    NqueensCommand nqueens;

    @Option(names = "--limit", paramLabel = "K", defaultValue = "20", description = "The last K runs (default: ${DEFAULT-VALUE}).")
    String limit;

    @Option(names = "--format", paramLabel = "F", defaultValue = "table",
            description = "table, csv or json (default: ${DEFAULT-VALUE}).")
    String format;

    @Override
    public Integer call() {
        int runs = Options.positive("--limit", limit, "a whole number of runs >= 1");
        QueryPrinter.Format chosen = QueryPrinter.Format.valueOf(Options.format(format).toUpperCase(Locale.ROOT));
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            QueryPrinter printer = new QueryPrinter(session.console().out(), chosen);
            new RunHistory(new ReadOnlyQuery(session.dataSource())).lastRuns(runs, printer);
            printer.finish();
        }
        return ExitCode.OK;
    }
}
