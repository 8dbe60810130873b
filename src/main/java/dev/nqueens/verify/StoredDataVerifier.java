package dev.nqueens.verify;

import dev.nqueens.settings.KnownCounts;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.ClassCounts;
import dev.nqueens.store.Generations;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.StoredLevel;
import dev.nqueens.verify.VerificationReport.Check;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Re-checks everything stored and exported; changes nothing. Per size in {@code board_summary}:
 * {@code placements}, {@code order} and {@code classes} of its published generation (see
 * {@link SizeScan}; sizes stored ALL or FUNDAMENTAL), {@code counts} and {@code known values} (see
 * {@link CountChecks}); sizes begun but not published yet, as work in progress; rows of no published
 * or building generation, which fail unless a run is deleting them (see {@link Generations}); then
 * the export folder (see {@link ExportFolderCheck}). Rows are streamed, and class member counts come
 * from SQL aggregation, so memory does not grow with the size. The reads run in one read-only
 * transaction: PostgreSQL's driver honours the fetch size only inside a transaction.
 */
@Component
public class StoredDataVerifier {

    private static final int FETCH_SIZE = 1000;

    private final SolutionStore store;
    private final Generations generations;
    private final NamedParameterJdbcTemplate jdbc;
    private final KnownCounts knownCounts;

    public StoredDataVerifier(SolutionStore store, JdbcTemplate jdbcTemplate, KnownCounts knownCounts) {
        this.store = store;
        this.generations = new Generations(jdbcTemplate);
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
            checks.add(Check.ok("n=" + rs.getInt(1) + " work in progress", String.format(
                    "%,d of %,d work unit counts done, not published yet", rs.getLong(4),
                    rs.getLong(2) * rs.getLong(3))));
        });
        jdbc.query("""
                SELECT g.n, g.generation,
                       (SELECT COUNT(*) FROM stored_fundamental f WHERE f.n = g.n AND f.generation = g.generation),
                       (SELECT COUNT(*) FROM stored_solution s WHERE s.n = g.n AND s.generation = g.generation)
                FROM building_generation g ORDER BY g.n
                """, Map.of(), (ResultSet rs) -> {
            checks.add(Check.ok("n=" + rs.getInt(1) + " work in progress", String.format(
                    "%,d classes and %,d solutions stored so far into generation %d, not published yet",
                    rs.getLong(3), rs.getLong(4), rs.getInt(2))));
        });
        return checks;
    }

    /**
     * Rows of a generation that nothing shows or builds: the one a publication replaced (or what a
     * lower level does not keep), which the run that published deletes right after. Seen while no
     * run is going, they are orphans: a run was killed while it deleted them (the next run deletes
     * them), or they come from elsewhere.
     */
    private List<Check> leftovers() {
        Map<String, List<Generations.Leftover>> byGeneration = new LinkedHashMap<>();
        for (Generations.Leftover leftover : generations.leftovers()) {
            byGeneration.computeIfAbsent("n=" + leftover.n() + " generation " + leftover.generation(),
                    name -> new ArrayList<>()).add(leftover);
        }
        if (byGeneration.isEmpty()) {
            return List.of();
        }
        boolean runGoing = jdbc.queryForObject("""
                SELECT COUNT(*) FROM batch_job_execution WHERE status IN ('STARTING', 'STARTED', 'STOPPING')
                """, Map.of(), Long.class) > 0;
        List<Check> checks = new ArrayList<>();
        byGeneration.forEach((name, leftovers) -> {
            String rows = String.join(", ", leftovers.stream().map(Generations.Leftover::describeRows).toList());
            checks.add(runGoing
                    ? Check.ok(name, rows + " no longer shown, being deleted by the run in progress")
                    : Check.failed(name, "orphaned: " + rows + " that no published or building generation keeps;"
                            + " the next run deletes them"));
        });
        return checks;
    }

    private List<Check> verifySize(BoardSummary summary) {
        int n = summary.n();
        List<Check> checks = new ArrayList<>();
        Optional<ClassCounts> stored = Optional.empty();
        if (summary.stored() != StoredLevel.COUNT) {
            boolean withSolutions = summary.stored() == StoredLevel.ALL;
            Map<String, Object> published = Map.of("n", n, "generation", jdbc.queryForObject(
                    "SELECT generation FROM board_summary WHERE n = :n", Map.of("n", n), Integer.class));
            SizeScan scan = new SizeScan(n);
            CellCheck cells = new CellCheck(n);
            scanClasses(n, scan, cells);
            if (withSolutions) {
                scanSolutions(published, scan);
                scanClassMembers(published, scan);
            }
            checks.addAll(scan.checks(withSolutions));
            if (withSolutions) {
                checks.add(compareCells(published, cells));
            }
            stored = Optional.of(storedCounts(published, withSolutions));
        }
        checks.add(CountChecks.counts(summary, stored));
        checks.add(CountChecks.known(summary, knownCounts.of(n)));
        return checks;
    }

    private void scanClasses(int n, SizeScan scan, CellCheck cells) {
        RowCallbackHandler row = (ResultSet rs) -> {
            scan.acceptClass(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getString(4));
            cells.acceptClass(rs.getLong(1), rs.getString(2));
        };
        jdbc.query("""
                SELECT class_ordinal, placement, orbit_size, symmetry
                FROM fundamental_solution WHERE n = :n ORDER BY class_ordinal
                """, Map.of("n", n), row);
    }

    /** The published generation's solutions. */
    private void scanSolutions(Map<String, Object> published, SizeScan scan) {
        RowCallbackHandler row = (ResultSet rs) -> scan.acceptSolution(rs.getLong(1), rs.getString(2),
                rs.getString(3), rs.getInt(4));
        jdbc.query("""
                SELECT ordinal, placement, representative, transform
                FROM stored_solution WHERE n = :n AND generation = :generation ORDER BY ordinal
                """, published, row);
    }

    /** Compares the published generation's rows in fundamental_cell, aggregated by the database, with the representatives. */
    private Check compareCells(Map<String, Object> published, CellCheck cells) {
        return jdbc.queryForObject("SELECT COUNT(*), COALESCE(SUM(class_ordinal * " + CellCheck.WEIGHT_SQL + "), 0),"
                + " COALESCE(SUM(" + CellCheck.WEIGHT_SQL + "), 0) FROM fundamental_cell"
                + " WHERE n = :n AND generation = :generation", published, (rs, rowNumber) -> cells.compare(
                rs.getLong(1), rs.getBigDecimal(2).toBigInteger().longValue(),
                rs.getBigDecimal(3).toBigInteger().longValue()));
    }

    /** The classes whose stored members, counted by the database, are not orbit_size many. */
    private void scanClassMembers(Map<String, Object> published, SizeScan scan) {
        RowCallbackHandler row = (ResultSet rs) -> scan.classMembersDiffer(rs.getLong(1), rs.getLong(3),
                rs.getInt(2));
        jdbc.query("""
                SELECT f.class_ordinal, f.orbit_size, COUNT(s.ordinal) AS members
                FROM stored_fundamental f
                LEFT JOIN stored_solution s ON s.n = f.n AND s.generation = f.generation
                    AND s.representative = f.placement
                WHERE f.n = :n AND f.generation = :generation
                GROUP BY f.class_ordinal, f.orbit_size
                HAVING COUNT(s.ordinal) <> f.orbit_size
                ORDER BY f.class_ordinal
                """, published, row);
    }

    /**
     * The counts of the published generation's rows; the total is the solutions stored, or the
     * classes' members when only the classes are.
     */
    private ClassCounts storedCounts(Map<String, Object> published, boolean withSolutions) {
        return jdbc.queryForObject("""
                SELECT (SELECT COUNT(*) FROM stored_solution s WHERE s.n = :n AND s.generation = :generation)
                           AS stored_solutions,
                       COALESCE(SUM(orbit_size), 0) AS class_members,
                       COUNT(*) AS fundamental_solutions,
                       COUNT(CASE WHEN symmetry = 'ROT90' THEN 1 END) AS rot90_classes,
                       COUNT(CASE WHEN symmetry = 'ROT180' THEN 1 END) AS rot180_classes,
                       COUNT(CASE WHEN symmetry = 'NONE' THEN 1 END) AS asymmetric_classes
                FROM stored_fundamental WHERE n = :n AND generation = :generation
                """, published, (rs, rowNumber) -> new ClassCounts(
                rs.getLong(withSolutions ? "stored_solutions" : "class_members"), rs.getLong("fundamental_solutions"),
                rs.getLong("rot90_classes"), rs.getLong("rot180_classes"), rs.getLong("asymmetric_classes")));
    }
}
