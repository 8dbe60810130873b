package dev.nqueens.verify;

import dev.nqueens.settings.ClassCounts;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.Dialect;
import dev.nqueens.store.GenerationTables;
import dev.nqueens.store.Generations;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.verify.VerificationReport.Check;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Re-checks everything stored and exported; changes nothing. Per size in {@code board_summary}:
 * {@code placements}, {@code order} and {@code classes} of its published generation's tables (see
 * {@link SizeScan}; sizes stored ALL or FUNDAMENTAL), {@code counts} and {@code known values} (see
 * {@link CountChecks}); sizes begun but not published yet, as work in progress; generation tables
 * nothing publishes or builds, which fail unless a run is dropping them (see {@link Generations});
 * then the export folder (see {@link ExportFolderCheck}). Rows are streamed, so memory does not
 * grow with the size beyond 8 bytes a class. The reads run in one read-only transaction:
 * PostgreSQL's driver honours the fetch size only inside a transaction.
 */
@Component
public class StoredDataVerifier {

    private static final int FETCH_SIZE = 2000;

    private final SolutionStore store;
    private final Generations generations;
    private final GenerationTables tables;
    private final NamedParameterJdbcTemplate jdbc;
    private final KnownCounts knownCounts;

    public StoredDataVerifier(
            SolutionStore store,
            Generations generations,
            GenerationTables tables,
            JdbcTemplate jdbcTemplate,
            KnownCounts knownCounts) {
        this.store = store;
        this.generations = generations;
        this.tables = tables;
        this.knownCounts = knownCounts;
        JdbcTemplate streaming = new JdbcTemplate(jdbcTemplate.getDataSource());
        streaming.setFetchSize(FETCH_SIZE);
        this.jdbc = new NamedParameterJdbcTemplate(streaming);
    }

    /**
     * Verifies every stored size and the exports in {@code outputFolder}.
     *
     * @throws org.springframework.dao.DataAccessException if the database cannot be read
     * @throws java.io.UncheckedIOException if the export folder cannot be listed
     */
    @Transactional(readOnly = true)
    public VerificationReport verify(Path outputFolder) {
        if (tables.dialect() == Dialect.H2) {
            jdbc.getJdbcTemplate().execute("SET LAZY_QUERY_EXECUTION TRUE");
        }
        List<BoardSummary> summaries = store.summaries();
        List<Check> checks = new ArrayList<>();
        for (BoardSummary summary : summaries) {
            checks.addAll(verifySize(summary));
        }
        checks.addAll(workInProgress());
        checks.addAll(leftovers());
        checks.addAll(new ExportFolderCheck(outputFolder).verify(summaries));
        return new VerificationReport(checks);
    }

    /**
     * Sizes a run has begun but not published (a closed time window, a crash): their counted work
     * units and stored rows are work in progress, out of sight until published, not damage.
     */
    private List<Check> workInProgress() {
        List<Check> checks = new ArrayList<>();
        jdbc.query("""
                SELECT p.n, p.work_units, p.replicas, (SELECT COUNT(*) FROM count_unit u WHERE u.n = p.n) AS counted
                FROM count_plan p ORDER BY p.n
                """, Map.of(), (ResultSet rs) -> {
            checks.add(Check.ok(
                    "n=" + rs.getInt(1) + " work in progress",
                    String.format(
                            "%,d of %,d work unit counts done, not published yet",
                            rs.getLong(4), rs.getLong(2) * rs.getLong(3))));
        });
        jdbc.query(
                "SELECT n, generation, classes_stored, solutions_stored FROM building_generation ORDER BY n",
                Map.of(),
                (ResultSet rs) -> {
                    checks.add(Check.ok(
                            "n=" + rs.getInt(1) + " work in progress",
                            String.format(
                                    "%,d classes and %,d solutions stored so far into generation %d, not published yet",
                                    rs.getLong(3), rs.getLong(4), rs.getInt(2))));
                });
        return checks;
    }

    /**
     * Generation tables that nothing shows or builds: the generation a publication replaced (or the
     * solutions a lower level does not keep), which the run that published drops right after. Seen
     * while no run is going, they are orphans: a run was killed before it dropped them (the next
     * run drops them).
     */
    private List<Check> leftovers() {
        List<Generations.Leftover> leftovers = generations.leftovers();
        if (leftovers.isEmpty()) {
            return List.of();
        }
        boolean runGoing = jdbc.queryForObject("""
                SELECT COUNT(*) FROM batch_job_execution WHERE status IN ('STARTING', 'STARTED', 'STOPPING')
                """, Map.of(), Long.class) > 0;
        List<Check> checks = new ArrayList<>();
        for (Generations.Leftover leftover : leftovers) {
            String name = "n=" + leftover.generation().n() + " generation "
                    + leftover.generation().generation();
            checks.add(
                    runGoing
                            ? Check.ok(
                                    name,
                                    leftover.describe() + " no longer shown, being dropped by the run in progress")
                            : Check.failed(
                                    name,
                                    "orphaned: " + leftover.describe() + ", which no published or building"
                                            + " generation keeps; the next run drops it"));
        }
        return checks;
    }

    private List<Check> verifySize(BoardSummary summary) {
        int n = summary.n();
        List<Check> checks = new ArrayList<>();
        Optional<ClassCounts> stored = Optional.empty();
        if (summary.stored() != StoredLevel.COUNT) {
            boolean withSolutions = summary.stored() == StoredLevel.ALL;
            OptionalInt generation = store.publishedGeneration(n);
            Optional<GenerationTables.Registered> registered =
                    generation.isPresent() ? tables.registered(generation.getAsInt()) : Optional.empty();
            if (registered.isEmpty() || withSolutions && !registered.get().withSolutions()) {
                checks.add(Check.failed(
                        "n=" + n + " tables",
                        "the generation its summary names ("
                                + (generation.isPresent() ? generation.getAsInt() : "none") + ") has no "
                                + (withSolutions ? "solution and class" : "class") + " tables"));
                checks.add(CountChecks.known(summary, knownCounts.of(n)));
                return checks;
            }
            SizeScan scan = new SizeScan(n);
            if (withSolutions) {
                scan.withSolutions(knownCounts
                        .of(n)
                        .map(KnownCounts.Known::fundamentalSolutions)
                        .orElse(0L));
            }
            scanClasses(registered.get(), scan);
            if (withSolutions) {
                scanSolutions(registered.get(), scan);
            }
            checks.addAll(scan.checks(withSolutions));
            stored = Optional.of(store.countStored(n, generation.getAsInt(), summary.stored()));
        }
        checks.add(CountChecks.counts(summary, stored));
        checks.add(CountChecks.known(summary, knownCounts.of(n)));
        return checks;
    }

    private void scanClasses(GenerationTables.Registered generation, SizeScan scan) {
        RowCallbackHandler row = (ResultSet rs) -> scan.acceptClass(
                rs.getLong(1), rs.getString(2), rs.getInt(3), SolutionStore.symmetryOf(rs.getInt(3)), rs.getString(4));
        jdbc.query(
                "SELECT class_ordinal, placement, orbit_size, cells FROM " + generation.classes()
                        + " ORDER BY class_ordinal",
                Map.of(),
                row);
    }

    /** The published generation's solutions. */
    private void scanSolutions(GenerationTables.Registered generation, SizeScan scan) {
        RowCallbackHandler row = (ResultSet rs) ->
                scan.acceptSolution(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getInt(4), rs.getInt(5));
        jdbc.query(
                "SELECT ordinal, placement, class_ordinal, transform, orbit_size FROM " + generation.solutions()
                        + " ORDER BY ordinal",
                Map.of(),
                row);
    }
}
