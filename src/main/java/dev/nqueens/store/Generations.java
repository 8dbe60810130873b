package dev.nqueens.store;

import dev.nqueens.settings.StoredLevel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The generations of the stored rows. A generation is one computation of one size, with tables of
 * its own ({@link GenerationTables}). A size is computed into its building generation
 * ({@code building_generation}, which also keeps the computation's {@link Checkpoint}) and
 * published by naming that generation in its {@code board_summary} row. What then shows nowhere —
 * the generation it replaced, the solution table of a size now kept with its classes only — is a
 * {@link Leftover}, dropped with its tables.
 */
@Repository
public class Generations {

    /** What of a registered generation nothing shows or builds: all of it, or only its solutions. */
    public record Leftover(GenerationTables.Registered generation, boolean onlySolutions) {

        /** {@code generation 42 of n=16 (its solutions)}. */
        public String describe() {
            return "generation " + generation.generation() + " of n=" + generation.n()
                    + (onlySolutions ? " (its solution table)" : "");
        }
    }

    private final NamedParameterJdbcTemplate jdbc;
    private final GenerationTables tables;

    public Generations(JdbcTemplate jdbcTemplate, GenerationTables tables) {
        this.jdbc = new NamedParameterJdbcTemplate(jdbcTemplate);
        this.tables = tables;
    }

    /**
     * The generation size {@code n} is being computed into at {@code level}: the one registered, or
     * a new one with its empty tables.
     */
    public int building(int n, StoredLevel level) {
        OptionalInt registered = buildingIfAny(n);
        if (registered.isPresent()) {
            return registered.getAsInt();
        }
        Integer generation = jdbc.queryForObject("SELECT nextval('solution_generation_seq')", Map.of(), Integer.class);
        tables.create(n, generation, level);
        try {
            jdbc.update(
                    "INSERT INTO building_generation (n, generation, started_at) VALUES (:n, :generation, :now)",
                    new MapSqlParameterSource("n", n)
                            .addValue("generation", generation)
                            .addValue("now", SolutionStore.now()));
            return generation;
        } catch (DuplicateKeyException e) {
            return buildingIfAny(n).orElseThrow(() -> e);
        }
    }

    /**
     * Gives up the building generation of size {@code n}: its tables go, and the next
     * {@link #building} starts a new one. For a generation whose rows do not add up to its
     * checkpoint (see {@link SolutionStore#trimToCheckpoint}).
     */
    public void restart(int n) {
        OptionalInt generation = buildingIfAny(n);
        jdbc.update("DELETE FROM building_generation WHERE n = :n", Map.of("n", n));
        if (generation.isPresent()) {
            tables.registered(generation.getAsInt()).ifPresent(tables::drop);
        }
    }

    /** The generation size {@code n} is being computed into, if it is. */
    public OptionalInt buildingIfAny(int n) {
        return jdbc
                .queryForList("SELECT generation FROM building_generation WHERE n = :n", Map.of("n", n), Integer.class)
                .stream()
                .mapToInt(Integer::intValue)
                .findFirst();
    }

    /** The leftovers of every size. */
    public List<Leftover> leftovers() {
        return leftovers(null);
    }

    /** The leftovers of size {@code n}. */
    public List<Leftover> leftovers(int n) {
        return leftovers(Integer.valueOf(n));
    }

    /**
     * What registered generations keep: the building one everything; the published one its classes
     * unless the size is kept as counts only, its solutions only at level ALL.
     */
    private List<Leftover> leftovers(Integer size) {
        Map<Integer, Integer> building = new HashMap<>();
        jdbc.query("SELECT n, generation FROM building_generation", Map.of(), rs -> {
            building.put(rs.getInt(1), rs.getInt(2));
        });
        Map<Integer, Integer> published = new HashMap<>();
        Map<Integer, StoredLevel> levels = new HashMap<>();
        jdbc.query("SELECT n, generation, stored FROM board_summary", Map.of(), rs -> {
            levels.put(rs.getInt(1), StoredLevel.valueOf(rs.getString(3)));
            int generation = rs.getInt(2);
            if (!rs.wasNull()) {
                published.put(rs.getInt(1), generation);
            }
        });
        List<Leftover> leftovers = new ArrayList<>();
        for (GenerationTables.Registered registered : tables.registered()) {
            int n = registered.n();
            if (size != null && size != n) {
                continue;
            }
            int generation = registered.generation();
            if (building.containsKey(n) && building.get(n) == generation) {
                continue;
            }
            if (!(published.containsKey(n) && published.get(n) == generation)) {
                leftovers.add(new Leftover(registered, false));
            } else if (registered.withSolutions() && levels.get(n) != StoredLevel.ALL) {
                leftovers.add(new Leftover(registered, true));
            }
        }
        return leftovers;
    }

    /** Drops a leftover's tables (only the solution table when the classes are still shown). */
    public void drop(Leftover leftover) {
        if (leftover.onlySolutions()) {
            tables.dropSolutions(leftover.generation());
        } else {
            tables.drop(leftover.generation());
        }
    }
}
