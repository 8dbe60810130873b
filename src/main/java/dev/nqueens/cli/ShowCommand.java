package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.settings.Durations;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import java.io.PrintStream;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code show N}: the stored solutions of one size, numbered as the seeds numbered them, optionally drawn. */
@Command(
        name = "show",
        header = "Print the stored solutions of one board size.",
        description = "Numbered by lexicographic rank, as the seeds numbered them; the size must be stored with every"
                + " solution (ALL), or with its representatives for --fundamental.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./nqueens show 8                       No. 1: 1 5 8 6 3 7 2 4 ... n=8: 92 solutions, 12 fundamental",
            "  ./nqueens show 8 --boards --limit 3    each solution also drawn as rows of Q and .",
            "  ./nqueens show 8 --fundamental         only the 12 class representatives"
        })
final class ShowCommand extends Subcommand {

    static final Needs NEEDS = Needs.READING;

    @Parameters(index = "0", paramLabel = "N", converter = Options.Size.class, description = "The board size, 1..25.")
    int size;

    @Option(names = "--boards", description = "Also draw each solution as a board of Q and dots.")
    boolean boards;

    @Option(names = "--fundamental", description = "Only the class representatives, with orbit size and symmetry.")
    boolean fundamental;

    @Option(
            names = "--limit",
            paramLabel = "K",
            converter = Options.Positive.class,
            description = "Print at most K solutions (default: all).")
    Integer limit;

    @Override
    public Integer call() {
        long most = limit == null ? Long.MAX_VALUE : limit;
        try (Session session = nqueens.launch().open(NEEDS, java.util.Map.of())) {
            return show(
                    size,
                    most,
                    SolutionStore.of(new JdbcTemplate(session.dataSource())),
                    session.console().out(),
                    session.console().err());
        }
    }

    private int show(int n, long most, SolutionStore store, PrintStream out, PrintStream err) {
        Optional<BoardSummary> summary = store.summary(n);
        if (summary.isEmpty()) {
            err.printf("nqueens: n=%d has not been solved yet; run: ./nqueens run --sizes %d%n", n, n);
            return ExitCode.FAILED;
        }
        BoardSummary row = summary.get();
        if (fundamental) {
            if (row.stored() == StoredLevel.COUNT) {
                err.printf("nqueens: n=%d is stored as counts only; no representatives to show%n", n);
                return ExitCode.FAILED;
            }
            store.forEachRepresentative(
                    n,
                    most,
                    rep -> printSolution(
                            out,
                            rep.classOrdinal(),
                            rep.placement(),
                            String.format("  (orbit %d, %s)", rep.orbitSize(), rep.symmetry())));
        } else {
            if (row.stored() != StoredLevel.ALL) {
                err.printf("nqueens: n=%d is stored as %s; use --fundamental or the counts below%n", n, row.stored());
                out.println(totals(row));
                return ExitCode.FAILED;
            }
            store.forEachSolution(
                    n, most, solution -> printSolution(out, solution.ordinal(), solution.placement(), ""));
        }
        out.println(totals(row));
        return ExitCode.OK;
    }

    private static String totals(BoardSummary row) {
        return "n=" + row.n() + ": " + Durations.count(row.totalSolutions()) + " solutions, "
                + Durations.count(row.fundamentalSolutions()) + " fundamental";
    }

    private void printSolution(PrintStream out, long number, String placement, String note) {
        out.printf("No. %d: %s%s%n", number, placement, note);
        if (boards) {
            out.print(Boards.render(placement));
            out.println();
        }
    }
}
