package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.store.GenerationTables;
import dev.nqueens.store.Generations;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.verify.StoredDataVerifier;
import dev.nqueens.verify.VerificationReport;
import java.nio.file.Path;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine.Command;

/** {@code verify}: re-checks everything stored and exported. */
@Command(
        name = "verify",
        header = "Re-check everything stored and exported.",
        description = "Solutions, their order, classes and cells, the counts against the published values, and"
                + " every export file against the manifest. Exit 0 only if all holds.",
        footerHeading = "%nExample:%n",
        footer = "  ./nqueens verify")
final class VerifyCommand extends Subcommand {

    static final Needs NEEDS = Needs.READING;

    @Override
    public Integer call() {
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            JdbcTemplate jdbc = new JdbcTemplate(session.dataSource());
            GenerationTables tables = GenerationTables.of(jdbc);
            VerificationReport report = new StoredDataVerifier(
                            new SolutionStore(jdbc, tables),
                            new Generations(jdbc, tables),
                            tables,
                            jdbc,
                            KnownCounts.load())
                    .verify(Path.of(session.settings().outputDir()));
            session.console().out().print(report.render());
            return report.allPassed() ? ExitCode.OK : ExitCode.FAILED;
        }
    }
}
