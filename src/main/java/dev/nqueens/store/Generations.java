package dev.nqueens.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The generations of the stored rows. Every row of {@code stored_fundamental}, {@code stored_solution}
 * and {@code fundamental_cell} belongs to one generation: one computation of one size. A size is
 * computed into its building generation ({@code building_generation}) and published by naming that
 * generation in its {@code board_summary} row. What then shows nowhere — the generation it replaced,
 * the rows a lower storage level no longer keeps — is a {@link Leftover}, deleted chunk by chunk, each
 * chunk in a transaction of its own, so that no transaction holds a whole size.
 */
@Repository
public class Generations {

    /** The tables of a generation, in the order its rows can be deleted (solutions name their class). */
    public enum Table {
        CELLS("fundamental_cell", "cells"),
        SOLUTIONS("stored_solution", "solutions"),
        CLASSES("stored_fundamental", "classes");

        final String table;
        final String rows;

        Table(String table, String rows) {
            this.table = table;
            this.rows = rows;
        }
    }

    /** The rows of one table and one generation of size {@code n} that nothing shows or builds. */
    public record Leftover(int n, Table table, int generation, long rows) {

        /** {@code 45,752 classes}. */
        public String describeRows() {
            return String.format("%,d %s", rows, table.rows);
        }
    }

    private final NamedParameterJdbcTemplate jdbc;

    public Generations(JdbcTemplate jdbcTemplate) {
        this.jdbc = new NamedParameterJdbcTemplate(jdbcTemplate);
    }

    /** The generation size {@code n} is being computed into: the one registered, or a new one registered now. */
    public int building(int n) {
        OptionalInt registered = buildingIfAny(n);
        if (registered.isPresent()) {
            return registered.getAsInt();
        }
        Integer generation = jdbc.queryForObject("SELECT nextval('solution_generation_seq')", Map.of(), Integer.class);
        try {
            jdbc.update("INSERT INTO building_generation (n, generation, started_at) VALUES (:n, :generation, :now)",
                    new MapSqlParameterSource("n", n).addValue("generation", generation)
                            .addValue("now", SolutionStore.now()));
            return generation;
        } catch (DuplicateKeyException e) {
            return buildingIfAny(n).orElseThrow(() -> e);
        }
    }

    /** The generation size {@code n} is being computed into, if it is. */
    public OptionalInt buildingIfAny(int n) {
        return jdbc.queryForList("SELECT generation FROM building_generation WHERE n = :n", Map.of("n", n),
                Integer.class).stream().mapToInt(Integer::intValue).findFirst();
    }

    /** The leftovers of every size, in the order they can be deleted. */
    public List<Leftover> leftovers() {
        return leftovers("", Map.of());
    }

    /** The leftovers of size {@code n}, in the order they can be deleted. */
    public List<Leftover> leftovers(int n) {
        return leftovers(" WHERE n = :n", Map.of("n", n));
    }

    /**
     * Rows a generation keeps: the building generation all of them; the published one its classes
     * unless the size is kept as counts only, its solutions and cells only at level ALL.
     */
    private List<Leftover> leftovers(String where, Map<String, ?> parameters) {
        Map<Integer, Integer> building = new HashMap<>();
        jdbc.query("SELECT n, generation FROM building_generation" + where, parameters,
                rs -> { building.put(rs.getInt(1), rs.getInt(2)); });
        Map<Integer, Integer> published = new HashMap<>();
        Map<Integer, StoredLevel> levels = new HashMap<>();
        jdbc.query("SELECT n, generation, stored FROM board_summary" + where, parameters, rs -> {
            levels.put(rs.getInt(1), StoredLevel.valueOf(rs.getString(3)));
            int generation = rs.getInt(2);
            if (!rs.wasNull()) {
                published.put(rs.getInt(1), generation);
            }
        });
        List<Leftover> leftovers = new ArrayList<>();
        for (Table table : Table.values()) {
            jdbc.query("SELECT n, generation, COUNT(*) FROM " + table.table + where + " GROUP BY n, generation",
                    parameters, rs -> {
                        int n = rs.getInt(1);
                        int generation = rs.getInt(2);
                        boolean kept = building.containsKey(n) && building.get(n) == generation
                                || published.containsKey(n) && published.get(n) == generation
                                        && (table == Table.CLASSES || levels.get(n) == StoredLevel.ALL);
                        if (!kept) {
                            leftovers.add(new Leftover(n, table, generation, rs.getLong(3)));
                        }
                    });
        }
        leftovers.sort(Comparator.comparingInt(Leftover::n).thenComparing(Leftover::table)
                .thenComparingInt(Leftover::generation));
        return leftovers;
    }

    /**
     * Deletes a leftover's rows in pieces of about {@code chunkRows}, each piece handed to
     * {@code inOwnTransaction}: ranges of ordinals (of class ordinals), cells square by square.
     */
    public void delete(Leftover leftover, int chunkRows, Consumer<Runnable> inOwnTransaction) {
        MapSqlParameterSource rows = new MapSqlParameterSource("n", leftover.n())
                .addValue("generation", leftover.generation());
        String number = leftover.table() == Table.SOLUTIONS ? "ordinal" : "class_ordinal";
        Long last = jdbc.queryForObject("SELECT MAX(" + number + ") FROM " + leftover.table().table
                + " WHERE n = :n AND generation = :generation", rows, Long.class);
        if (last == null) {
            return;
        }
        if (leftover.table() != Table.CELLS) {
            deleteInRanges(leftover.table().table + " WHERE n = :n AND generation = :generation", number, last,
                    chunkRows, rows, inOwnTransaction);
            return;
        }
        // A class has n cells spread over n² squares: a square holds about one cell in n classes.
        long width = (long) chunkRows * leftover.n();
        for (int row = 1; row <= leftover.n(); row++) {
            for (int column = 1; column <= leftover.n(); column++) {
                deleteInRanges("fundamental_cell WHERE n = :n AND queen_row = :row AND queen_column = :column"
                        + " AND generation = :generation", number, last, width,
                        new MapSqlParameterSource(rows.getValues()).addValue("row", row).addValue("column", column),
                        inOwnTransaction);
            }
        }
    }

    private void deleteInRanges(String rowsOf, String number, long last, long width, MapSqlParameterSource rows,
            Consumer<Runnable> inOwnTransaction) {
        for (long from = 0; from < last; from += width) {
            MapSqlParameterSource range = new MapSqlParameterSource(rows.getValues()).addValue("from", from)
                    .addValue("to", Math.min(last, from + width));
            inOwnTransaction.accept(() -> jdbc.update("DELETE FROM " + rowsOf + " AND " + number + " > :from AND "
                    + number + " <= :to", range));
        }
    }
}
