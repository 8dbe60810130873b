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
import java.util.function.Consumer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads and writes the product's tables. Writes join the caller's transaction (a chunk, a
 * publishing step); reads of whole sizes stream row by row so memory stays bounded whatever the
 * size.
 */
@Repository
public class SolutionStore {

    private static final int FETCH_SIZE = 1000;

    private final NamedParameterJdbcTemplate jdbc;

    public SolutionStore(JdbcTemplate jdbcTemplate) {
        JdbcTemplate streaming = new JdbcTemplate(jdbcTemplate.getDataSource());
        streaming.setFetchSize(FETCH_SIZE);
        this.jdbc = new NamedParameterJdbcTemplate(streaming);
    }

    // ---- computing a size ------------------------------------------------------------------

    /** The placement of the last solution of size {@code n} stored in {@code tables}, if any. */
    public Optional<String> lastSolution(int n, SolutionTables tables) {
        return first("SELECT placement FROM " + tables.solution + " WHERE n = :n ORDER BY ordinal DESC LIMIT 1", n);
    }

    /** The placement of the last class representative of size {@code n} stored in {@code tables}, if any. */
    public Optional<String> lastRepresentative(int n, SolutionTables tables) {
        return first("SELECT placement FROM " + tables.representatives
                + " WHERE n = :n ORDER BY class_ordinal DESC LIMIT 1", n);
    }

    /** How far the computation of {@code n} into {@code tables} has got: the last ordinal stored (classes at level FUNDAMENTAL). */
    public long storedSoFar(int n, SolutionTables tables, StoredLevel level) {
        return level == StoredLevel.ALL
                ? count("SELECT COALESCE(MAX(ordinal), 0) FROM " + tables.solution + " WHERE n = :n", n)
                : count("SELECT COALESCE(MAX(class_ordinal), 0) FROM " + tables.representatives + " WHERE n = :n", n);
    }

    public long solutionCount(int n, SolutionTables tables) {
        return count("SELECT COUNT(*) FROM " + tables.solution + " WHERE n = :n", n);
    }

    public long representativeCount(int n, SolutionTables tables) {
        return count("SELECT COUNT(*) FROM " + tables.representatives + " WHERE n = :n", n);
    }

    /**
     * Stores one chunk, each part with a JDBC batch: the classes it opens first, then its
     * solutions. When the chunk has solutions (level ALL) the new representatives' queens go to
     * the cell table too, the index of the {@code solution_cell} view (see also
     * {@link #ensureSquareSymmetry}).
     */
    public void insertChunk(int n, SolutionTables tables, List<RepresentativeRow> newClasses,
            List<SolutionInsert> solutions) {
        JdbcTemplate batch = jdbc.getJdbcTemplate();
        if (!newClasses.isEmpty()) {
            batch.batchUpdate("INSERT INTO " + tables.representatives
                    + " (n, class_ordinal, placement, orbit_size, symmetry) VALUES (?, ?, ?, ?, ?)",
                    newClasses, newClasses.size(), (PreparedStatement ps, RepresentativeRow row) -> {
                        ps.setInt(1, n);
                        ps.setLong(2, row.classOrdinal());
                        ps.setString(3, row.placement());
                        ps.setInt(4, row.orbitSize());
                        ps.setString(5, row.symmetry());
                    });
        }
        if (!solutions.isEmpty()) {
            batch.batchUpdate("INSERT INTO " + tables.solution
                    + " (n, ordinal, placement, representative, transform) VALUES (?, ?, ?, ?, ?)",
                    solutions, solutions.size(), (PreparedStatement ps, SolutionInsert row) -> {
                        ps.setInt(1, n);
                        ps.setLong(2, row.ordinal());
                        ps.setString(3, row.placement());
                        ps.setString(4, row.representative());
                        ps.setInt(5, row.transform());
                    });
            if (!newClasses.isEmpty()) {
                batch.batchUpdate(SolutionCells.insert(tables.cell), SolutionCells.of(n, newClasses));
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
     * Cuts the rows of {@code n} in {@code tables} back to what whole committed chunks leave: class
     * ordinals 1..m without a gap, and at level ALL solutions 1..k without a gap whose classes all
     * exist with all n of their representative's cells; then drops the classes and cells no kept
     * solution needs. Committed chunks always form such a prefix; this makes resuming safe when a
     * crash left part of a chunk behind (H2 can keep part of a transaction killed mid-way).
     */
    public void trimToCommittedPrefix(int n, SolutionTables tables, StoredLevel level) {
        trimAfterFirstGap(n, tables.representatives, "class_ordinal");
        if (level == StoredLevel.ALL) {
            Map<String, Object> size = Map.of("n", n);
            java.util.stream.LongStream.of(firstAfterGap(n, tables.solution, "ordinal"),
                    orZero(jdbc.queryForObject("SELECT MIN(s.ordinal) FROM " + tables.solution + " s WHERE s.n = :n"
                            + " AND NOT EXISTS (SELECT 1 FROM " + tables.representatives + " f WHERE f.n = s.n"
                            + " AND f.placement = s.representative)", size, Long.class)),
                    firstSolutionOfDamagedCells(n, tables))
                    .filter(cut -> cut > 0).min()
                    .ifPresent(cut -> jdbc.update("DELETE FROM " + tables.solution + " WHERE n = :n AND ordinal >= :cut",
                            Map.of("n", n, "cut", cut)));
            dropClassesWithoutSolutions(n, tables);
        }
        jdbc.update("DELETE FROM " + tables.cell + " WHERE n = :n AND class_ordinal > (SELECT COALESCE(MAX(class_ordinal),"
                + " 0) FROM " + tables.representatives + " WHERE n = :n)", Map.of("n", n));
    }

    /**
     * The first solution of the first class whose representative does not have exactly n cells;
     * 0 if none. One pass over the size's cells, grouped by class in class order (a join per class
     * would have no index to use: the cells are keyed by square first).
     */
    private long firstSolutionOfDamagedCells(int n, SolutionTables tables) {
        Map<String, Object> size = Map.of("n", n);
        long classes = count("SELECT COUNT(*) FROM " + tables.representatives + " WHERE n = :n", n);
        long[] damaged = {0};
        long[] expected = {1};
        jdbc.query("SELECT class_ordinal, COUNT(*) FROM " + tables.cell + " WHERE n = :n GROUP BY class_ordinal"
                + " ORDER BY class_ordinal", size, (ResultSet rs) -> {
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
        return orZero(jdbc.queryForObject("SELECT MIN(s.ordinal) FROM " + tables.solution + " s JOIN " + tables.representatives
                + " f ON f.n = s.n AND f.placement = s.representative WHERE s.n = :n AND f.class_ordinal >= :damaged",
                Map.of("n", n, "damaged", damaged[0]), Long.class));
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    private void trimAfterFirstGap(int n, String table, String column) {
        long cut = firstAfterGap(n, table, column);
        if (cut > 0) {
            jdbc.update("DELETE FROM " + table + " WHERE n = :n AND " + column + " >= :cut", Map.of("n", n, "cut", cut));
        }
    }

    /** The first number of {@code column} after a gap in 1, 2, 3, ...; 0 if the numbers have none. */
    private long firstAfterGap(int n, String table, String column) {
        Map<String, Object> size = Map.of("n", n);
        Map<String, Object> shape = jdbc.queryForMap("SELECT COUNT(*) AS rows_, COALESCE(MAX(" + column
                + "), 0) AS last_ FROM " + table + " WHERE n = :n", size);
        if (((Number) shape.get("rows_")).longValue() == ((Number) shape.get("last_")).longValue()) {
            return 0;
        }
        return orZero(jdbc.queryForObject("SELECT MIN(s." + column + ") FROM " + table + " s WHERE s.n = :n"
                + " AND s." + column + " > 1 AND NOT EXISTS (SELECT 1 FROM " + table + " p WHERE p.n = s.n AND p." + column
                + " = s." + column + " - 1)", size, Long.class));
    }

    /**
     * Drops class rows of {@code n} that no stored solution belongs to: what an interrupted
     * FUNDAMENTAL computation leaves before the size is computed with every solution.
     */
    public void dropClassesWithoutSolutions(int n, SolutionTables tables) {
        jdbc.update("DELETE FROM " + tables.representatives + " f WHERE f.n = :n AND NOT EXISTS (SELECT 1 FROM "
                + tables.solution + " s WHERE s.n = f.n AND s.representative = f.placement)", Map.of("n", n));
    }

    /**
     * Counts what {@code tables} hold of size {@code n}, split by the classes' symmetry. With every
     * solution stored the total is the number of rows; with representatives only it is the sum of
     * their orbit sizes.
     */
    public ClassCounts countStored(int n, SolutionTables tables, StoredLevel level) {
        String total = level == StoredLevel.ALL
                ? "(SELECT COUNT(*) FROM " + tables.solution + " s WHERE s.n = :n)"
                : "COALESCE(SUM(orbit_size), 0)";
        return jdbc.queryForObject("SELECT " + total + """
                 AS total_solutions,
                       COUNT(*) AS fundamental_solutions,
                       COUNT(CASE WHEN symmetry = 'ROT90' THEN 1 END) AS rot90_classes,
                       COUNT(CASE WHEN symmetry = 'ROT180' THEN 1 END) AS rot180_classes,
                       COUNT(CASE WHEN symmetry = 'NONE' THEN 1 END) AS asymmetric_classes
                FROM """ + " " + tables.representatives + " WHERE n = :n", Map.of("n", n),
                (rs, row) -> new ClassCounts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        rs.getLong(5)));
    }

    // ---- publishing a size (one transaction per size, by the caller) ------------------------

    /** Replaces the published rows of {@code n} by the staged ones, then empties the staging. */
    public void publishStaged(int n, StoredLevel level) {
        Map<String, Integer> size = Map.of("n", n);
        jdbc.update("DELETE FROM fundamental_cell WHERE n = :n", size);
        jdbc.update("DELETE FROM stored_solution WHERE n = :n", size);
        jdbc.update("DELETE FROM stored_fundamental WHERE n = :n", size);
        if (level != StoredLevel.COUNT) {
            jdbc.update("""
                    INSERT INTO stored_fundamental (n, class_ordinal, placement, orbit_size, symmetry)
                    SELECT n, class_ordinal, placement, orbit_size, symmetry FROM staged_fundamental WHERE n = :n
                    """, size);
        }
        if (level == StoredLevel.ALL) {
            jdbc.update("""
                    INSERT INTO stored_solution (n, ordinal, placement, representative, transform)
                    SELECT n, ordinal, placement, representative, transform FROM staged_solution WHERE n = :n
                    """, size);
            jdbc.update("""
                    INSERT INTO fundamental_cell (n, queen_row, queen_column, class_ordinal)
                    SELECT n, queen_row, queen_column, class_ordinal FROM staged_fundamental_cell WHERE n = :n
                    """, size);
        }
        clearStaging(n);
    }

    public void clearStaging(int n) {
        jdbc.update("DELETE FROM staged_fundamental_cell WHERE n = :n", Map.of("n", n));
        jdbc.update("DELETE FROM staged_solution WHERE n = :n", Map.of("n", n));
        jdbc.update("DELETE FROM staged_fundamental WHERE n = :n", Map.of("n", n));
    }

    /** Deletes the published rows of {@code n} that a size stored at {@code level} does not keep. */
    public void dropRowsAbove(int n, StoredLevel level) {
        if (level != StoredLevel.ALL) {
            jdbc.update("DELETE FROM fundamental_cell WHERE n = :n", Map.of("n", n));
            jdbc.update("DELETE FROM stored_solution WHERE n = :n", Map.of("n", n));
        }
        if (level == StoredLevel.COUNT) {
            jdbc.update("DELETE FROM stored_fundamental WHERE n = :n", Map.of("n", n));
        }
    }

    /** Replaces the summary row of a size. */
    public void saveSummary(BoardSummary summary) {
        jdbc.update("DELETE FROM board_summary WHERE n = :n", Map.of("n", summary.n()));
        jdbc.update("""
                INSERT INTO board_summary (n, total_solutions, fundamental_solutions, rot90_classes,
                    rot180_classes, asymmetric_classes, stored, computed_at, elapsed_ms)
                VALUES (:n, :total, :fundamental, :rot90, :rot180, :asymmetric, :stored, :computedAt, :elapsedMs)
                """, new MapSqlParameterSource()
                .addValue("n", summary.n())
                .addValue("total", summary.totalSolutions())
                .addValue("fundamental", summary.fundamentalSolutions())
                .addValue("rot90", summary.rot90Classes())
                .addValue("rot180", summary.rot180Classes())
                .addValue("asymmetric", summary.asymmetricClasses())
                .addValue("stored", summary.stored().name())
                .addValue("computedAt", summary.computedAt())
                .addValue("elapsedMs", summary.elapsedMs()));
    }

    /** Changes only the storage level of a published size (its counts stay). */
    public void changeStoredLevel(int n, StoredLevel level) {
        jdbc.update("UPDATE board_summary SET stored = :stored WHERE n = :n",
                Map.of("n", n, "stored", level.name()));
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

    private Optional<String> first(String sql, int n) {
        return jdbc.query(sql, Map.of("n", n), (rs, row) -> rs.getString(1)).stream().findFirst();
    }

    private long count(String sql, int n) {
        Long count = jdbc.queryForObject(sql, Map.of("n", n), Long.class);
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
                FROM stored_solution s JOIN fundamental_solution f ON f.n = s.n AND f.placement = s.representative
                WHERE s.n = :n AND f.class_ordinal = :classOrdinal ORDER BY s.ordinal
                """, Map.of("n", n, "classOrdinal", classOrdinal), (rs, row) -> new SolutionRow(rs.getLong(1),
                rs.getString(2), rs.getLong(3), rs.getInt(4), rs.getString(5)));
    }
}
