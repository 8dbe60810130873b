package dev.nqueens.store;

import dev.nqueens.settings.ClassCounts;
import dev.nqueens.settings.StoredLevel;
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
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads and writes the product's rows. A size's rows are written into the tables of one
 * generation (see {@link Generations} and {@link GenerationTables}) and read, once published,
 * from the generation its {@code board_summary} row names. Writes join the caller's transaction (a
 * chunk, a publishing step); reads of whole sizes stream row by row so memory stays bounded
 * whatever the size.
 */
@Repository
public class SolutionStore {

    private static final int FETCH_SIZE = 2000;

    private final NamedParameterJdbcTemplate jdbc;
    private final GenerationTables tables;

    public SolutionStore(JdbcTemplate jdbcTemplate, GenerationTables tables) {
        JdbcTemplate streaming = new JdbcTemplate(jdbcTemplate.getDataSource());
        streaming.setFetchSize(FETCH_SIZE);
        this.jdbc = new NamedParameterJdbcTemplate(streaming);
        this.tables = tables;
    }

    /** The store of the database behind {@code jdbc}, outside an application context (the commands that open none). */
    public static SolutionStore of(JdbcTemplate jdbc) {
        return new SolutionStore(jdbc, GenerationTables.of(jdbc));
    }

    // ---- computing a size (into one generation of its rows) --------------------------------

    /** How far the computation of size {@code n} into its building generation {@code generation} has got. */
    public Checkpoint checkpoint(int n, int generation) {
        return jdbc
                .query(
                        "SELECT solutions_stored, classes_stored, last_placement FROM building_generation"
                                + " WHERE n = :n AND generation = :generation",
                        Map.of("n", n, "generation", generation),
                        (rs, row) -> new Checkpoint(
                                n, generation, rs.getLong(1), rs.getLong(2), Optional.ofNullable(rs.getString(3))))
                .stream()
                .findFirst()
                .orElse(Checkpoint.empty(n, generation));
    }

    /**
     * Cuts the rows of a building generation back to its checkpoint, and says whether what is left
     * is exactly what the checkpoint records. Committed chunks always are; H2 can keep part of a
     * transaction killed mid-way (docs/h2.md), and such stray rows past the checkpoint go here. A
     * row missing before the checkpoint cannot be cut back to: the generation cannot be resumed.
     * Reads each table's key range and row count once (on H2 from its primary key; on PostgreSQL,
     * whose tables get their keys only once loaded, one pass over them), deletes only when there is
     * something past the checkpoint.
     *
     * @return false if the rows do not add up to the checkpoint
     */
    public boolean trimToCheckpoint(Checkpoint checkpoint, StoredLevel level) {
        int n = checkpoint.n();
        int generation = checkpoint.generation();
        boolean whole =
                cutBackTo(GenerationTables.fundamentalTable(n, generation), "class_ordinal", checkpoint.classes());
        if (level == StoredLevel.ALL) {
            String solutions = GenerationTables.solutionTable(n, generation);
            whole &= cutBackTo(solutions, "ordinal", checkpoint.solutions());
            whole &= checkpoint.solutions() == 0
                    || checkpoint
                            .lastPlacement()
                            .equals(jdbc
                                    .query(
                                            "SELECT placement FROM " + solutions + " WHERE ordinal = :last",
                                            Map.of("last", checkpoint.solutions()),
                                            (rs, row) -> rs.getString(1))
                                    .stream()
                                    .findFirst());
        }
        return whole;
    }

    /** Deletes the rows of {@code table} past key {@code last}; whether it then holds exactly the keys 1..last. */
    private boolean cutBackTo(String table, String key, long last) {
        Map<String, Object> shape = shape(table, key);
        if (((Number) shape.get("last_")).longValue() > last) {
            jdbc.update("DELETE FROM " + table + " WHERE " + key + " > :last", Map.of("last", last));
            shape = shape(table, key);
        }
        return ((Number) shape.get("rows_")).longValue() == last
                && ((Number) shape.get("last_")).longValue() == last
                && ((Number) shape.get("first_")).longValue() == Math.min(1, last);
    }

    private Map<String, Object> shape(String table, String key) {
        return jdbc.queryForMap(
                "SELECT COUNT(*) AS rows_, COALESCE(MAX(" + key + "), 0) AS last_, COALESCE(MIN(" + key
                        + "), 0) AS first_ FROM " + table,
                Map.of());
    }

    /** Streams the placements of the classes stored so far in a generation, in no particular order. */
    public void forEachStoredRepresentative(int n, int generation, Consumer<String> action) {
        jdbc.query(
                "SELECT placement FROM " + GenerationTables.fundamentalTable(n, generation),
                Map.of(),
                (ResultSet rs) -> {
                    action.accept(rs.getString(1));
                });
    }

    /**
     * Adds the rows of {@code square_symmetry} for size {@code n} unless all 8 n² are there: the
     * other table the {@code solution_cell} view of a size stored with every solution needs.
     */
    public void ensureSquareSymmetry(int n) {
        JdbcTemplate plain = jdbc.getJdbcTemplate();
        Long present = plain.queryForObject("SELECT COUNT(*) FROM square_symmetry WHERE n = ?", Long.class, n);
        if (present == null || present != 8L * n * n) {
            plain.update("DELETE FROM square_symmetry WHERE n = ?", n);
            plain.batchUpdate(SolutionCells.SQUARE_SYMMETRY_INSERT, SolutionCells.squareSymmetry(n));
        }
    }

    /**
     * Counts what generation {@code generation} holds of size {@code n}, split by the classes'
     * symmetry. With every solution stored the total is the number of solution rows; with
     * representatives only it is the sum of their orbit sizes.
     */
    public ClassCounts countStored(int n, int generation, StoredLevel level) {
        String classes = GenerationTables.fundamentalTable(n, generation);
        String total = level == StoredLevel.ALL
                ? "(SELECT COUNT(*) FROM " + GenerationTables.solutionTable(n, generation) + ")"
                : "COALESCE(SUM(orbit_size), 0)";
        return jdbc.queryForObject(
                "SELECT " + total + " AS total_solutions, COUNT(*) AS fundamental_solutions,"
                        + " COUNT(CASE WHEN orbit_size < 4 THEN 1 END) AS rot90_classes,"
                        + " COUNT(CASE WHEN orbit_size = 4 THEN 1 END) AS rot180_classes,"
                        + " COUNT(CASE WHEN orbit_size = 8 THEN 1 END) AS asymmetric_classes FROM " + classes,
                Map.of(),
                (rs, row) ->
                        new ClassCounts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)));
    }

    // ---- publishing a size: one small transaction per size, by the caller --------------------

    /**
     * Publishes a size: writes its summary row, which names the generation of its rows that the
     * views show from now on ({@code generation} empty for a size kept as counts only), and ends
     * the size's building generation. The tables of the generation it replaces are left to
     * {@link Generations#leftovers}.
     */
    public void publish(BoardSummary summary, OptionalInt generation) {
        saveSummary(summary, generation);
        jdbc.update("DELETE FROM building_generation WHERE n = :n", Map.of("n", summary.n()));
    }

    /**
     * Changes only the storage level of a published size (its counts and, unless it is kept as
     * counts only now, the generation of its rows stay); the tables the lower level does not keep
     * are left to {@link Generations#leftovers}.
     */
    public void changeStoredLevel(int n, StoredLevel level) {
        jdbc.update(
                "UPDATE board_summary SET stored = :stored, generation = CASE WHEN :stored = 'COUNT' THEN NULL"
                        + " ELSE generation END WHERE n = :n",
                Map.of("n", n, "stored", level.name()));
    }

    private void saveSummary(BoardSummary summary, OptionalInt generation) {
        jdbc.update("DELETE FROM board_summary WHERE n = :n", Map.of("n", summary.n()));
        jdbc.update(
                """
                INSERT INTO board_summary (n, total_solutions, fundamental_solutions, rot90_classes,
                    rot180_classes, asymmetric_classes, stored, computed_at, elapsed_ms, generation)
                VALUES (:n, :total, :fundamental, :rot90, :rot180, :asymmetric, :stored, :computedAt, :elapsedMs,
                    :generation)
                """,
                new MapSqlParameterSource()
                        .addValue("n", summary.n())
                        .addValue("total", summary.totalSolutions())
                        .addValue("fundamental", summary.fundamentalSolutions())
                        .addValue("rot90", summary.rot90Classes())
                        .addValue("rot180", summary.rot180Classes())
                        .addValue("asymmetric", summary.asymmetricClasses())
                        .addValue("stored", summary.stored().name())
                        .addValue("computedAt", summary.computedAt())
                        .addValue("elapsedMs", summary.elapsedMs())
                        .addValue(
                                "generation",
                                generation.isPresent() ? generation.getAsInt() : null,
                                java.sql.Types.INTEGER));
    }

    // ---- reading published sizes -----------------------------------------------------------

    public Optional<BoardSummary> summary(int n) {
        return jdbc.query(SUMMARY_SELECT + " WHERE n = :n", Map.of("n", n), SolutionStore::summaryRow).stream()
                .findFirst();
    }

    /** Every summary row, by size. */
    public List<BoardSummary> summaries() {
        return jdbc.query(SUMMARY_SELECT + " ORDER BY n", Map.of(), SolutionStore::summaryRow);
    }

    /** The generation whose rows size {@code n} publishes, when it is published with rows (ALL or FUNDAMENTAL). */
    public OptionalInt publishedGeneration(int n) {
        return jdbc
                .query(
                        "SELECT generation FROM board_summary WHERE n = :n AND generation IS NOT NULL",
                        Map.of("n", n),
                        (rs, row) -> rs.getInt(1))
                .stream()
                .mapToInt(Integer::intValue)
                .findFirst();
    }

    /**
     * Streams the solutions of size {@code n} in ordinal order, at most {@code limit} of them,
     * straight from the published generation's table (its key order). Runs in a read-only
     * transaction so that PostgreSQL uses a cursor instead of loading every row.
     */
    @Transactional(readOnly = true)
    public void forEachSolution(int n, long limit, Consumer<SolutionRow> action) {
        forEachSolution(n, 0, limit, action);
    }

    /** Streams the class representatives of size {@code n} in class order, at most {@code limit}. */
    @Transactional(readOnly = true)
    public void forEachRepresentative(int n, long limit, Consumer<RepresentativeRow> action) {
        forEachRepresentative(n, 0, limit, action);
    }

    /** The current time as stored: UTC, milliseconds. */
    public static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
    }

    private static final String SUMMARY_SELECT = """
            SELECT n, total_solutions, fundamental_solutions, rot90_classes, rot180_classes,
                   asymmetric_classes, stored, computed_at, elapsed_ms
            FROM board_summary""";

    private static BoardSummary summaryRow(ResultSet rs, int row) throws SQLException {
        return new BoardSummary(
                rs.getInt(1),
                rs.getLong(2),
                rs.getLong(3),
                rs.getLong(4),
                rs.getLong(5),
                rs.getLong(6),
                StoredLevel.valueOf(rs.getString(7)),
                rs.getObject(8, OffsetDateTime.class),
                rs.getLong(9));
    }

    /** {@code ROT90}, {@code ROT180} or {@code NONE}: the symmetry of a class, from its orbit size. */
    public static String symmetryOf(int orbitSize) {
        return orbitSize == 8 ? "NONE" : orbitSize == 4 ? "ROT180" : "ROT90";
    }

    // ---- reading pages of a published size (serve: the web pages and the API) ---------------

    /**
     * Streams the solutions of size {@code n} with ordinals {@code offset + 1 .. offset + limit}, in
     * ordinal order: a range of the primary key, so a page deep in a large size costs what the
     * first one does. Nothing when the size is not published with every solution.
     */
    @Transactional(readOnly = true)
    public void forEachSolution(int n, long offset, long limit, Consumer<SolutionRow> action) {
        streamResults();
        published(n, StoredLevel.ALL)
                .ifPresent(generation -> jdbc.query(
                        "SELECT ordinal, placement, class_ordinal,"
                                + " orbit_size FROM " + GenerationTables.solutionTable(n, generation)
                                + " WHERE ordinal > :first AND ordinal <= :last ORDER BY ordinal",
                        Map.of("first", offset, "last", offset + Math.min(limit, Long.MAX_VALUE - offset)),
                        (ResultSet rs) -> {
                            action.accept(solutionRow(rs));
                        }));
    }

    /** Streams the classes of size {@code n} numbered {@code offset + 1 .. offset + limit}, in class order. */
    @Transactional(readOnly = true)
    public void forEachRepresentative(int n, long offset, long limit, Consumer<RepresentativeRow> action) {
        streamResults();
        published(n, StoredLevel.FUNDAMENTAL)
                .ifPresent(generation -> jdbc.query(
                        "SELECT class_ordinal, placement,"
                                + " orbit_size FROM " + GenerationTables.fundamentalTable(n, generation)
                                + " WHERE class_ordinal > :first AND class_ordinal <= :last ORDER BY class_ordinal",
                        Map.of("first", offset, "last", offset + Math.min(limit, Long.MAX_VALUE - offset)),
                        (ResultSet rs) -> {
                            int orbit = rs.getInt(3);
                            action.accept(
                                    new RepresentativeRow(rs.getLong(1), rs.getString(2), orbit, symmetryOf(orbit)));
                        }));
    }

    /** The members of class {@code classOrdinal} of size {@code n} (stored at level ALL), in ordinal order. */
    @Transactional(readOnly = true)
    public List<SolutionRow> membersOfClass(int n, long classOrdinal) {
        return published(n, StoredLevel.ALL)
                .map(generation -> jdbc.query(
                        "SELECT ordinal, placement, class_ordinal,"
                                + " orbit_size FROM " + GenerationTables.solutionTable(n, generation)
                                + " WHERE class_ordinal = :classOrdinal ORDER BY ordinal",
                        Map.of("classOrdinal", classOrdinal),
                        (rs, row) -> solutionRow(rs)))
                .orElse(List.of());
    }

    /**
     * On H2, lets the transaction's session hand out the rows of a query as it reads them: without
     * it H2 first copies a whole result (millions of rows) into a temporary table.
     */
    private void streamResults() {
        if (tables.dialect() == Dialect.H2) {
            jdbc.getJdbcTemplate().execute("SET LAZY_QUERY_EXECUTION TRUE");
        }
    }

    /**
     * The generation size {@code n} publishes, if it is published with at least the rows of
     * {@code level}: solutions at ALL, classes at ALL or FUNDAMENTAL.
     */
    private Optional<Integer> published(int n, StoredLevel level) {
        String levels = level == StoredLevel.ALL ? "('ALL')" : "('ALL', 'FUNDAMENTAL')";
        return jdbc
                .query(
                        "SELECT generation FROM board_summary WHERE n = :n AND generation IS NOT NULL AND stored IN "
                                + levels,
                        Map.of("n", n),
                        (rs, row) -> rs.getInt(1))
                .stream()
                .findFirst();
    }

    private static SolutionRow solutionRow(ResultSet rs) throws SQLException {
        int orbit = rs.getInt(4);
        return new SolutionRow(rs.getLong(1), rs.getString(2), rs.getLong(3), orbit, symmetryOf(orbit));
    }
}
