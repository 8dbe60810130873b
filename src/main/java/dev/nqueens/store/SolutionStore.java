package dev.nqueens.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
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
 * Reads and writes the product's tables. Writes join the caller's transaction (a chunk, a summary
 * step); reads of whole sizes stream row by row so memory stays bounded whatever the size.
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

    /** The placement of the last stored solution of size {@code n}, if any. */
    public Optional<String> lastStoredPlacement(int n) {
        return jdbc.query("""
                SELECT placement FROM stored_solution
                WHERE n = :n ORDER BY ordinal DESC LIMIT 1
                """, Map.of("n", n), (rs, row) -> rs.getString(1)).stream().findFirst();
    }

    public long storedSolutionCount(int n) {
        return count("SELECT COUNT(*) FROM stored_solution WHERE n = :n", n);
    }

    public long fundamentalCount(int n) {
        return count("SELECT COUNT(*) FROM fundamental_solution WHERE n = :n", n);
    }

    /**
     * Stores one chunk: the classes it opens first, then its solutions, each with a JDBC batch.
     */
    public void insertChunk(int n, List<FundamentalRow> newClasses, List<SolutionInsert> solutions) {
        JdbcTemplate batch = jdbc.getJdbcTemplate();
        if (!newClasses.isEmpty()) {
            batch.batchUpdate("""
                    INSERT INTO fundamental_solution (n, class_ordinal, placement, orbit_size, symmetry)
                    VALUES (?, ?, ?, ?, ?)
                    """, newClasses, newClasses.size(), (PreparedStatement ps, FundamentalRow row) -> {
                ps.setInt(1, n);
                ps.setLong(2, row.classOrdinal());
                ps.setString(3, row.placement());
                ps.setInt(4, row.orbitSize());
                ps.setString(5, row.symmetry());
            });
        }
        batch.batchUpdate("""
                INSERT INTO stored_solution (n, ordinal, placement, representative)
                VALUES (?, ?, ?, ?)
                """, solutions, solutions.size(), (PreparedStatement ps, SolutionInsert row) -> {
            ps.setInt(1, n);
            ps.setLong(2, row.ordinal());
            ps.setString(3, row.placement());
            ps.setString(4, row.representative());
        });
    }

    /** Counts what is stored of size {@code n}, split by the classes' symmetry. */
    public ClassCounts countStored(int n) {
        return jdbc.queryForObject("""
                SELECT (SELECT COUNT(*) FROM stored_solution s WHERE s.n = :n) AS total_solutions,
                       COUNT(*) AS fundamental_solutions,
                       COUNT(CASE WHEN symmetry = 'ROT90' THEN 1 END) AS rot90_classes,
                       COUNT(CASE WHEN symmetry = 'ROT180' THEN 1 END) AS rot180_classes,
                       COUNT(CASE WHEN symmetry = 'NONE' THEN 1 END) AS asymmetric_classes
                FROM fundamental_solution WHERE n = :n
                """, Map.of("n", n), (rs, row) -> new ClassCounts(rs.getLong(1), rs.getLong(2),
                rs.getLong(3), rs.getLong(4), rs.getLong(5)));
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
    public void forEachFundamental(int n, long limit, Consumer<FundamentalRow> action) {
        jdbc.query("""
                SELECT class_ordinal, placement, orbit_size, symmetry
                FROM fundamental_solution WHERE n = :n AND class_ordinal <= :limit ORDER BY class_ordinal
                """, Map.of("n", n, "limit", limit), (ResultSet rs) -> {
            action.accept(new FundamentalRow(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getString(4)));
        });
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
}
