package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.query.QueryPrinter;
import dev.nqueens.query.ReadOnlyQuery;
import dev.nqueens.store.Dialect;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sql STATEMENT}: one read-only statement against the configured database. */
@Command(
        name = "sql",
        header = "Run one read-only SQL statement; print a table, CSV or JSON.",
        description = "SELECT, WITH, VALUES, TABLE, EXPLAIN or SHOW, in a read-only transaction that is rolled"
                + " back; an aligned table, or CSV or JSON for scripts. One statement: a ';' in a string, a quoted"
                + " name or a comment ends none, and one at the end is allowed.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./nqueens sql \"SELECT n, total_solutions FROM board_summary ORDER BY n\"",
            "  ./nqueens sql \"SELECT * FROM solution WHERE n = 8 AND class_ordinal = 3\" --format csv"
        })
final class SqlCommand extends Subcommand {

    static final Needs NEEDS = Needs.READING;

    @Parameters(index = "0", paramLabel = "STATEMENT", description = "One read-only statement, in quotes.")
    String statement;

    @Option(
            names = "--format",
            paramLabel = "F",
            defaultValue = "table",
            description = "table, csv or json (default: ${DEFAULT-VALUE}).")
    QueryPrinter.Format format;

    @Override
    public Integer call() {
        // Checked before the database is opened, as the configured database cuts a text into statements.
        try (Session session = nqueens.launch()
                .open(
                        NEEDS,
                        Map.of(),
                        (settings, database) -> ReadOnlyQuery.checked(
                                statement, database.isPostgres() ? Dialect.POSTGRESQL : Dialect.H2))) {
            QueryPrinter printer = new QueryPrinter(session.console().out(), format);
            new ReadOnlyQuery(session.dataSource(), session.settings().statementTimeout()).run(statement, printer);
            printer.finish();
        }
        return ExitCode.OK;
    }
}
