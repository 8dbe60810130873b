package dev.nqueens.store;

import dev.nqueens.settings.ClassCounts;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.stereotype.Repository;

/**
 * The counting work of the sizes kept as counts only, until each is published: how a size is
 * split ({@code count_plan}, fixed when the size is first planned) and the result of every work
 * unit counted so far ({@code count_unit}, one row per unit and replica, written in the counting
 * step's own transaction). A unit's row is written once: a second result for the same unit and
 * replica is not stored.
 */
@Repository
public class CountUnits {

    /**
     * How a counted size is split.
     *
     * @param n the board size
     * @param workUnits the number of the counting engine's work units
     * @param unitFingerprint the engine's fingerprint of that list of units
     * @param partitions how many partitions the units are dealt into (unit u goes to partition u mod partitions)
     * @param replicas 1, or 2 when every unit is counted twice by different workers and the two must agree
     */
    public record Plan(int n, int workUnits, String unitFingerprint, int partitions, int replicas) {}

    /** The counts of one finished work unit. */
    public record UnitResult(
            int n,
            int unitIndex,
            int replica,
            ClassCounts counts,
            long elapsedMs,
            String countedBy,
            Long stepExecutionId) {}

    /** Two replicas of one unit that disagree, with who counted each. */
    public record Disagreement(
            int n, int unitIndex, ClassCounts first, String firstBy, ClassCounts second, String secondBy) {}

    private final NamedParameterJdbcTemplate jdbc;

    public CountUnits(JdbcTemplate jdbcTemplate) {
        this.jdbc = new NamedParameterJdbcTemplate(jdbcTemplate);
    }

    public Optional<Plan> plan(int n) {
        return jdbc
                .query(
                        "SELECT n, work_units, unit_fingerprint, partitions, replicas FROM count_plan WHERE n = :n",
                        Map.of("n", n),
                        (rs, row) -> new Plan(rs.getInt(1), rs.getInt(2), rs.getString(3), rs.getInt(4), rs.getInt(5)))
                .stream()
                .findFirst();
    }

    public void savePlan(Plan plan) {
        jdbc.update(
                """
                INSERT INTO count_plan (n, work_units, unit_fingerprint, partitions, replicas, planned_at)
                VALUES (:n, :units, :fingerprint, :partitions, :replicas, :at)
                """,
                new MapSqlParameterSource("n", plan.n())
                        .addValue("units", plan.workUnits())
                        .addValue("fingerprint", plan.unitFingerprint())
                        .addValue("partitions", plan.partitions())
                        .addValue("replicas", plan.replicas())
                        .addValue("at", SolutionStore.now()));
    }

    /** Forgets the plan of {@code n} and every unit counted under it. */
    public void deletePlan(int n) {
        jdbc.update("DELETE FROM count_unit WHERE n = :n", Map.of("n", n));
        jdbc.update("DELETE FROM count_plan WHERE n = :n", Map.of("n", n));
    }

    /** The units of {@code n} already counted for {@code replica}. */
    public BitSet countedUnits(int n, int replica) {
        BitSet counted = new BitSet();
        jdbc.query(
                "SELECT unit_index FROM count_unit WHERE n = :n AND replica = :replica",
                Map.of("n", n, "replica", replica),
                (ResultSet rs) -> {
                    counted.set(rs.getInt(1));
                });
        return counted;
    }

    /** How many units of {@code n} are counted, all replicas together. */
    public long countedUnitRows(int n) {
        Long rows = jdbc.queryForObject("SELECT COUNT(*) FROM count_unit WHERE n = :n", Map.of("n", n), Long.class);
        return rows == null ? 0 : rows;
    }

    /** Who counted the units of {@code n} in {@code replica} that partition {@code index} of {@code partitions} holds. */
    public List<String> countedBy(int n, int replica, int partitions, int index) {
        return jdbc.queryForList(
                """
                SELECT DISTINCT counted_by FROM count_unit
                WHERE n = :n AND replica = :replica AND MOD(unit_index, :partitions) = :index
                """, Map.of("n", n, "replica", replica, "partitions", partitions, "index", index), String.class);
    }

    /**
     * Stores units' results, in one JDBC batch, except those whose unit and replica are already stored.
     *
     * @return how many were stored
     */
    public int save(List<UnitResult> units) {
        SqlParameterSource[] rows = units.stream()
                .map(unit -> new MapSqlParameterSource("n", unit.n())
                        .addValue("unit", unit.unitIndex())
                        .addValue("replica", unit.replica())
                        .addValue("total", unit.counts().totalSolutions())
                        .addValue("fundamental", unit.counts().fundamentalSolutions())
                        .addValue("rot90", unit.counts().rot90Classes())
                        .addValue("rot180", unit.counts().rot180Classes())
                        .addValue("asymmetric", unit.counts().asymmetricClasses())
                        .addValue("elapsedMs", unit.elapsedMs())
                        .addValue("by", unit.countedBy())
                        .addValue("step", unit.stepExecutionId())
                        .addValue("at", SolutionStore.now()))
                .toArray(SqlParameterSource[]::new);
        int[] stored = jdbc.batchUpdate("""
                INSERT INTO count_unit (n, unit_index, replica, total_solutions, fundamental_solutions, rot90_classes,
                    rot180_classes, asymmetric_classes, elapsed_ms, counted_by, step_execution_id, computed_at)
                SELECT :n, :unit, :replica, :total, :fundamental, :rot90, :rot180, :asymmetric, :elapsedMs, :by, :step, :at
                WHERE NOT EXISTS (SELECT 1 FROM count_unit WHERE n = :n AND unit_index = :unit AND replica = :replica)
                """, rows);
        return (int) Arrays.stream(stored).filter(count -> count == 1).count();
    }

    /** The sum of the units of {@code n} counted for {@code replica}. */
    public ClassCounts sum(int n, int replica) {
        return jdbc.queryForObject("""
                SELECT COALESCE(SUM(total_solutions), 0), COALESCE(SUM(fundamental_solutions), 0),
                       COALESCE(SUM(rot90_classes), 0), COALESCE(SUM(rot180_classes), 0),
                       COALESCE(SUM(asymmetric_classes), 0)
                FROM count_unit WHERE n = :n AND replica = :replica
                """, Map.of("n", n, "replica", replica), (rs, row) -> counts(rs, 1));
    }

    /** The units of {@code n} whose two replicas disagree. */
    public List<Disagreement> disagreements(int n) {
        return jdbc.query(
                """
                SELECT a.unit_index,
                       a.total_solutions, a.fundamental_solutions, a.rot90_classes, a.rot180_classes,
                       a.asymmetric_classes, a.counted_by,
                       b.total_solutions, b.fundamental_solutions, b.rot90_classes, b.rot180_classes,
                       b.asymmetric_classes, b.counted_by
                FROM count_unit a JOIN count_unit b ON b.n = a.n AND b.unit_index = a.unit_index AND b.replica = 2
                WHERE a.n = :n AND a.replica = 1
                  AND (a.total_solutions <> b.total_solutions OR a.fundamental_solutions <> b.fundamental_solutions
                       OR a.rot90_classes <> b.rot90_classes OR a.rot180_classes <> b.rot180_classes
                       OR a.asymmetric_classes <> b.asymmetric_classes)
                ORDER BY a.unit_index
                """,
                Map.of("n", n),
                (rs, row) -> new Disagreement(
                        n, rs.getInt(1), counts(rs, 2), rs.getString(7), counts(rs, 8), rs.getString(13)));
    }

    /** Forgets both replicas of one unit, so that it is counted again. */
    public void forgetUnit(int n, int unitIndex) {
        jdbc.update("DELETE FROM count_unit WHERE n = :n AND unit_index = :unit", Map.of("n", n, "unit", unitIndex));
    }

    private static ClassCounts counts(ResultSet rs, int first) throws SQLException {
        return new ClassCounts(
                rs.getLong(first),
                rs.getLong(first + 1),
                rs.getLong(first + 2),
                rs.getLong(first + 3),
                rs.getLong(first + 4));
    }
}
