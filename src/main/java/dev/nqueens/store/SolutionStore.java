package dev.nqueens.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads and writes the product's tables. A size's rows are written into one generation (see
 * {@link Generations}) and read, once published, through the views, which show the generation its
 * {@code board_summary} row names. Writes join the caller's transaction (a chunk, a publishing
 * step); reads of whole sizes stream row by row so memory stays bounded whatever the size.
 */
@Repository
public class SolutionStore {

    private static final int FETCH_SIZE = 1000;

    private final NamedParameterJdbcTemplate jdbc;
    /** Whether the database is PostgreSQL; looked up when first needed. */
    private volatile Boolean postgres;

    public SolutionStore(JdbcTemplate jdbcTemplate) {
        JdbcTemplate streaming = new JdbcTemplate(jdbcTemplate.getDataSource());
        streaming.setFetchSize(FETCH_SIZE);
        this.jdbc = new NamedParameterJdbcTemplate(streaming);
    }

    // ---- computing a size (into one generation of its rows) --------------------------------

    /** The placement of the last solution of size {@code n} stored in {@code generation}, if any. */
    public Optional<String> lastSolution(int n, int generation) {
        return first("SELECT placement FROM stored_solution WHERE n = :n AND generation = :generation"
                + " ORDER BY ordinal DESC LIMIT 1", n, generation);
    }

    /** The placement of the last class representative of size {@code n} stored in {@code generation}, if any. */
    public Optional<String> lastRepresentative(int n, int generation) {
        return first("SELECT placement FROM stored_fundamental WHERE n = :n AND generation = :generation"
                + " ORDER BY class_ordinal DESC LIMIT 1", n, generation);
    }

    /** How far the computation of {@code n} into {@code generation} has got: the last ordinal stored (classes at level FUNDAMENTAL). */
    public long storedSoFar(int n, int generation, StoredLevel level) {
        return level == StoredLevel.ALL
                ? count("SELECT COALESCE(MAX(ordinal), 0) FROM stored_solution WHERE n = :n AND generation = :generation",
                        n, generation)
                : count("SELECT COALESCE(MAX(class_ordinal), 0) FROM stored_fundamental WHERE n = :n"
                        + " AND generation = :generation", n, generation);
    }

    public long solutionCount(int n, int generation) {
        return count("SELECT COUNT(*) FROM stored_solution WHERE n = :n AND generation = :generation", n, generation);
    }

    public long representativeCount(int n, int generation) {
        return count("SELECT COUNT(*) FROM stored_fundamental WHERE n = :n AND generation = :generation", n,
                generation);
    }

    /**
     * Stores one chunk into {@code generation}, each part with a JDBC batch: the classes it opens
     * first, then its solutions. When the chunk has solutions (level ALL) the new representatives'
     * queens go to the cell table too, the index of the {@code solution_cell} view (see also
     * {@link #ensureSquareSymmetry}).
     */
    public void insertChunk(int n, int generation, List<RepresentativeRow> newClasses, List<SolutionInsert> solutions) {
        JdbcTemplate batch = jdbc.getJdbcTemplate();
        if (!newClasses.isEmpty()) {
            batch.batchUpdate("INSERT INTO stored_fundamental (n, generation, class_ordinal, placement, orbit_size,"
                    + " symmetry) VALUES (?, ?, ?, ?, ?, ?)",
                    newClasses, newClasses.size(), (PreparedStatement ps, RepresentativeRow row) -> {
                        ps.setInt(1, n);
                        ps.setInt(2, generation);
                        ps.setLong(3, row.classOrdinal());
                        ps.setString(4, row.placement());
                        ps.setInt(5, row.orbitSize());
                        ps.setString(6, row.symmetry());
                    });
        }
        if (!solutions.isEmpty()) {
            batch.batchUpdate("INSERT INTO stored_solution (n, generation, ordinal, placement, representative,"
                    + " transform) VALUES (?, ?, ?, ?, ?, ?)",
                    solutions, solutions.size(), (PreparedStatement ps, SolutionInsert row) -> {
                        ps.setInt(1, n);
                        ps.setInt(2, generation);
                        ps.setLong(3, row.ordinal());
                        ps.setString(4, row.placement());
                        ps.setString(5, row.representative());
                        ps.setInt(6, row.transform());
                    });
            if (!newClasses.isEmpty()) {
                batch.batchUpdate(SolutionCells.INSERT, SolutionCells.of(n, generation, newClasses));
            }
        }
    }

    /**
     * Adds the rows of {@code square_symmetry} for size {@code n} unless all 8 n² are there: the
     * other table the {@code solution_cell} view of a size stored with every solution needs.
     */
    public void ensureSquareSymmetry(int n) {
        JdbcTemplate batch = jdbc.getJdbcTemplate();
        if (count("SELECT COUNT(*) FROM square_symmetry WHERE n = :n", n) != 8L * n * n) {
            batch.update("DELETE FROM square_symmetry WHERE n = ?", n);
            batch.batchUpdate(SolutionCells.SQUARE_SYMMETRY_INSERT, SolutionCells.squareSymmetry(n));
        }
    }

    /**
     * Cuts the rows of {@code n} in {@code generation} back to what whole committed chunks leave:
     * class ordinals 1..m without a gap, and at level ALL solutions 1..k without a gap whose classes
     * all exist with all n of their representative's cells; then drops the classes and cells no kept
     * solution needs. Committed chunks always form such a prefix; this makes resuming safe when a
     * crash left part of a chunk behind (H2 can keep part of a transaction killed mid-way).
     */
    public void trimToCommittedPrefix(int n, int generation, StoredLevel level) {
        Map<String, Object> rows = Map.of("n", n, "generation", generation);
        if (lastRepresentative(n, generation).isPresent()) {
            refreshStatisticsOnPostgres();
        }
        trimAfterFirstGap(n, generation, "stored_fundamental", "class_ordinal");
        if (level == StoredLevel.ALL) {
            java.util.stream.LongStream.of(firstAfterGap(n, generation, "stored_solution", "ordinal"),
                    orZero(jdbc.queryForObject("SELECT MIN(s.ordinal) FROM stored_solution s WHERE s.n = :n"
                            + " AND s.generation = :generation AND NOT EXISTS (SELECT 1 FROM stored_fundamental f"
                            + " WHERE f.n = s.n AND f.generation = s.generation AND f.placement = s.representative)",
                            rows, Long.class)),
                    firstSolutionOfDamagedCells(n, generation))
                    .filter(cut -> cut > 0).min()
                    .ifPresent(cut -> jdbc.update("DELETE FROM stored_solution WHERE n = :n AND generation = :generation"
                            + " AND ordinal >= :cut", Map.of("n", n, "generation", generation, "cut", cut)));
            dropClassesWithoutSolutions(n, generation);
        }
        jdbc.update("DELETE FROM fundamental_cell WHERE n = :n AND generation = :generation AND class_ordinal >"
                + " (SELECT COALESCE(MAX(class_ordinal), 0) FROM stored_fundamental WHERE n = :n"
                + " AND generation = :generation)", rows);
    }

    /**
     * On PostgreSQL, refreshes the planner's statistics of the tables the trim joins. A generation
     * written since the last (auto)analyze is unknown to them: the planner then expects one row,
     * joins the solutions to their classes in a nested loop that scans the whole generation for
     * each class, and a run resumed after a kill in the middle of n = 13 spent 60-90 s there instead
     * of well under one (a hash join once the statistics know the rows).
     */
    private void refreshStatisticsOnPostgres() {
        if (postgres == null) {
            postgres = jdbc.getJdbcTemplate().execute((ConnectionCallback<Boolean>) connection ->
                    "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName()));
        }
        if (Boolean.TRUE.equals(postgres)) {
            jdbc.getJdbcTemplate().execute("ANALYZE stored_solution, stored_fundamental, fundamental_cell");
        }
    }

    /**
     * The first solution of the first class whose representative does not have exactly n cells;
     * 0 if none. One pass over the size's cells, grouped by class in class order (a join per class
     * would have no index to use: the cells are keyed by square first).
     */
    private long firstSolutionOfDamagedCells(int n, int generation) {
        Map<String, Object> rows = Map.of("n", n, "generation", generation);
        long classes = representativeCount(n, generation);
        long[] damaged = {0};
        long[] expected = {1};
        jdbc.query("SELECT class_ordinal, COUNT(*) FROM fundamental_cell WHERE n = :n AND generation = :generation"
                + " GROUP BY class_ordinal ORDER BY class_ordinal", rows, (ResultSet rs) -> {
            if (damaged[0] == 0 && (rs.getLong(1) != expected[0] || rs.getLong(2) != n)) {
                damaged[0] = Math.min(expected[0], rs.getLong(1));
            }
            expected[0] = rs.getLong(1) + 1;
        });
        if (damaged[0] == 0 && expected[0] <= classes) {
            damaged[0] = expected[0];
        }
        if (damaged[0] == 0) {
            return 0;
        }
        return orZero(jdbc.queryForObject("SELECT MIN(s.ordinal) FROM stored_solution s JOIN stored_fundamental f"
                + " ON f.n = s.n AND f.generation = s.generation AND f.placement = s.representative"
                + " WHERE s.n = :n AND s.generation = :generation AND f.class_ordinal >= :damaged",
                Map.of("n", n, "generation", generation, "damaged", damaged[0]), Long.class));
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    private void trimAfterFirstGap(int n, int generation, String table, String column) {
        long cut = firstAfterGap(n, generation, table, column);
        if (cut > 0) {
            jdbc.update("DELETE FROM " + table + " WHERE n = :n AND generation = :generation AND " + column
                    + " >= :cut", Map.of("n", n, "generation", generation, "cut", cut));
        }
    }

    /** The first number of {@code column} after a gap in 1, 2, 3, ...; 0 if the numbers have none. */
    private long firstAfterGap(int n, int generation, String table, String column) {
        Map<String, Object> rows = Map.of("n", n, "generation", generation);
        Map<String, Object> shape = jdbc.queryForMap("SELECT COUNT(*) AS rows_, COALESCE(MAX(" + column
                + "), 0) AS last_ FROM " + table + " WHERE n = :n AND generation = :generation", rows);
        if (((Number) shape.get("rows_")).longValue() == ((Number) shape.get("last_")).longValue()) {
            return 0;
        }
        return orZero(jdbc.queryForObject("SELECT MIN(s." + column + ") FROM " + table + " s WHERE s.n = :n"
                + " AND s.generation = :generation AND s." + column + " > 1 AND NOT EXISTS (SELECT 1 FROM " + table
                + " p WHERE p.n = s.n AND p.generation = s.generation AND p." + column + " = s." + column + " - 1)",
                rows, Long.class));
    }

    /**
     * Drops class rows of {@code n} in {@code generation} that no stored solution belongs to: what
     * an interrupted FUNDAMENTAL computation leaves before the size is computed with every solution.
     */
    public void dropClassesWithoutSolutions(int n, int generation) {
        jdbc.update("DELETE FROM stored_fundamental f WHERE f.n = :n AND f.generation = :generation AND NOT EXISTS"
                + " (SELECT 1 FROM stored_solution s WHERE s.n = f.n AND s.generation = f.generation"
                + " AND s.representative = f.placement)", Map.of("n", n, "generation", generation));
    }

    /**
     * Counts what {@code generation} holds of size {@code n}, split by the classes' symmetry. With
     * every solution stored the total is the number of rows; with representatives only it is the
     * sum of their orbit sizes.
     */
    public ClassCounts countStored(int n, int generation, StoredLevel level) {
        String total = level == StoredLevel.ALL
                ? "(SELECT COUNT(*) FROM stored_solution s WHERE s.n = :n AND s.generation = :generation)"
                : "COALESCE(SUM(orbit_size), 0)";
        return jdbc.queryForObject("SELECT " + total + """
                 AS total_solutions,
                       COUNT(*) AS fundamental_solutions,
                       COUNT(CASE WHEN symmetry = 'ROT90' THEN 1 END) AS rot90_classes,
                       COUNT(CASE WHEN symmetry = 'ROT180' THEN 1 END) AS rot180_classes,
                       COUNT(CASE WHEN symmetry = 'NONE' THEN 1 END) AS asymmetric_classes
                FROM stored_fundamental WHERE n = :n AND generation = :generation""",
                Map.of("n", n, "generation", generation),
                (rs, row) -> new ClassCounts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        rs.getLong(5)));
    }

    // ---- publishing a size: one small transaction per size, by the caller --------------------

    /**
     * Publishes a size: writes its summary row, which names the generation of its rows that the
     * views show from now on ({@code generation} empty for a size kept as counts only), and ends
     * the size's building generation. The rows of the generation it replaces are left to
     * {@link Generations#leftovers}.
     */
    public void publish(BoardSummary summary, OptionalInt generation) {
        saveSummary(summary, generation);
        jdbc.update("DELETE FROM building_generation WHERE n = :n", Map.of("n", summary.n()));
    }

    /**
     * Changes only the storage level of a published size (its counts and, unless it is kept as
     * counts only now, the generation of its rows stay); the rows the lower level does not keep
     * are left to {@link Generations#leftovers}.
     */
    public void changeStoredLevel(int n, StoredLevel level) {
        jdbc.update("UPDATE board_summary SET stored = :stored, generation = CASE WHEN :stored = 'COUNT' THEN NULL"
                + " ELSE generation END WHERE n = :n", Map.of("n", n, "stored", level.name()));
    }

    private void saveSummary(BoardSummary summary, OptionalInt generation) {
        jdbc.update("DELETE FROM board_summary WHERE n = :n", Map.of("n", summary.n()));
        jdbc.update("""
                INSERT INTO board_summary (n, total_solutions, fundamental_solutions, rot90_classes,
                    rot180_classes, asymmetric_classes, stored, computed_at, elapsed_ms, generation)
                VALUES (:n, :total, :fundamental, :rot90, :rot180, :asymmetric, :stored, :computedAt, :elapsedMs,
                    :generation)
                """, new MapSqlParameterSource()
                .addValue("n", summary.n())
                .addValue("total", summary.totalSolutions())
                .addValue("fundamental", summary.fundamentalSolutions())
                .addValue("rot90", summary.rot90Classes())
                .addValue("rot180", summary.rot180Classes())
                .addValue("asymmetric", summary.asymmetricClasses())
                .addValue("stored", summary.stored().name())
                .addValue("computedAt", summary.computedAt())
                .addValue("elapsedMs", summary.elapsedMs())
                .addValue("generation", generation.isPresent() ? generation.getAsInt() : null, java.sql.Types.INTEGER));
    }

    // ---- reading published sizes -----------------------------------------------------------

    public Optional<BoardSummary> summary(int n) {
        return jdbc.query(SUMMARY_SELECT + " WHERE n = :n", Map.of("n", n), SolutionStore::summaryRow)
                .stream().findFirst();
    }

    /** Every summary row, by size. */
    public List<BoardSummary> summaries() {
        return jdbc.query(SUMMARY_SELECT + " ORDER BY n", Map.of(), SolutionStore::summaryRow);
    }

    /**
     * Streams the solutions of size {@code n} in ordinal order, at most {@code limit} of them. Runs in
     * a read-only transaction so that PostgreSQL uses a cursor instead of loading every row.
     */
    @Transactional(readOnly = true)
    public void forEachSolution(int n, long limit, Consumer<SolutionRow> action) {
        jdbc.query("""
                SELECT ordinal, placement, class_ordinal, orbit_size, symmetry
                FROM solution WHERE n = :n AND ordinal <= :limit ORDER BY ordinal
                """, Map.of("n", n, "limit", limit), (ResultSet rs) -> {
            action.accept(new SolutionRow(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getInt(4),
                    rs.getString(5)));
        });
    }

    /** Streams the class representatives of size {@code n} in class order, at most {@code limit}. */
    @Transactional(readOnly = true)
    public void forEachRepresentative(int n, long limit, Consumer<RepresentativeRow> action) {
        jdbc.query("""
                SELECT class_ordinal, placement, orbit_size, symmetry
                FROM fundamental_solution WHERE n = :n AND class_ordinal <= :limit ORDER BY class_ordinal
                """, Map.of("n", n, "limit", limit), (ResultSet rs) -> {
            action.accept(new RepresentativeRow(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getString(4)));
        });
    }

    /** The current time as stored: UTC, milliseconds. */
    public static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
    }

    private Optional<String> first(String sql, int n, int generation) {
        return jdbc.query(sql, Map.of("n", n, "generation", generation), (rs, row) -> rs.getString(1)).stream()
                .findFirst();
    }

    private long count(String sql, int n) {
        Long count = jdbc.queryForObject(sql, Map.of("n", n), Long.class);
        return count == null ? 0 : count;
    }

    private long count(String sql, int n, int generation) {
        Long count = jdbc.queryForObject(sql, Map.of("n", n, "generation", generation), Long.class);
        return count == null ? 0 : count;
    }

    private static final String SUMMARY_SELECT = """
            SELECT n, total_solutions, fundamental_solutions, rot90_classes, rot180_classes,
                   asymmetric_classes, stored, computed_at, elapsed_ms
            FROM board_summary""";

    private static BoardSummary summaryRow(ResultSet rs, int row) throws SQLException {
        return new BoardSummary(rs.getInt(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                rs.getLong(6), StoredLevel.valueOf(rs.getString(7)), rs.getObject(8, OffsetDateTime.class),
                rs.getLong(9));
    }

    // ---- reading pages of a published size (serve: the web pages and the API) ---------------

    /**
     * Streams the solutions of size {@code n} with ordinals {@code offset + 1 .. offset + limit}, in
     * ordinal order: a range of the primary key, so a page deep in a large size costs what the
     * first one does.
     */
    @Transactional(readOnly = true)
    public void forEachSolution(int n, long offset, long limit, Consumer<SolutionRow> action) {
        jdbc.query("""
                SELECT ordinal, placement, class_ordinal, orbit_size, symmetry
                FROM solution WHERE n = :n AND ordinal > :first AND ordinal <= :last ORDER BY ordinal
                """, Map.of("n", n, "first", offset, "last", offset + limit), (ResultSet rs) -> {
            action.accept(new SolutionRow(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getInt(4),
                    rs.getString(5)));
        });
    }

    /** Streams the classes of size {@code n} numbered {@code offset + 1 .. offset + limit}, in class order. */
    @Transactional(readOnly = true)
    public void forEachRepresentative(int n, long offset, long limit, Consumer<RepresentativeRow> action) {
        jdbc.query("""
                SELECT class_ordinal, placement, orbit_size, symmetry
                FROM fundamental_solution WHERE n = :n AND class_ordinal > :first AND class_ordinal <= :last
                ORDER BY class_ordinal
                """, Map.of("n", n, "first", offset, "last", offset + limit), (ResultSet rs) -> {
            action.accept(new RepresentativeRow(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getString(4)));
        });
    }

    /** The members of class {@code classOrdinal} of size {@code n} (stored at level ALL), in ordinal order. */
    @Transactional(readOnly = true)
    public List<SolutionRow> membersOfClass(int n, long classOrdinal) {
        return jdbc.query("""
                SELECT s.ordinal, s.placement, f.class_ordinal, f.orbit_size, f.symmetry
                FROM board_summary b
                JOIN stored_fundamental f ON f.n = b.n AND f.generation = b.generation
                JOIN stored_solution s ON s.n = f.n AND s.generation = f.generation AND s.representative = f.placement
                WHERE b.n = :n AND b.stored = 'ALL' AND f.class_ordinal = :classOrdinal ORDER BY s.ordinal
                """, Map.of("n", n, "classOrdinal", classOrdinal), (rs, row) -> new SolutionRow(rs.getLong(1),
                rs.getString(2), rs.getLong(3), rs.getInt(4), rs.getString(5)));
    }
}
