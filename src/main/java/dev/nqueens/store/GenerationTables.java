package dev.nqueens.store;

import dev.nqueens.settings.StoredLevel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The tables of each generation (one computation of one size): {@code fundamental_nNN_gG}, its
 * classes, and at level ALL {@code solution_nNN_gG}, its solutions, registered in
 * {@code stored_generation}. A size's rows get tables of their own so that each is loaded the way
 * its database loads fastest — rows in key order on H2, {@code COPY} into tables without indexes
 * on PostgreSQL — with the secondary indexes built once, after the rows are in ({@link #finish}),
 * and so that a replaced generation goes with one {@code DROP TABLE}.
 *
 * <p>The views {@code solution}, {@code fundamental_solution} and {@code solution_cell} are the
 * union of every registered generation's tables, each joined to {@code board_summary} on the
 * generation that row publishes: a generation being built is in the views but shows nothing until
 * its size's summary names it, and publishing stays one small transaction. The views are written
 * anew whenever a generation's tables come or go ({@link GenerationViews}).
 *
 * <p>Columns of {@code solution_nNN_gG}: {@code ordinal} (the key), {@code placement} (the text
 * form, unique), {@code class_ordinal}, {@code transform} (the symmetry from the class's
 * representative onto the solution) and {@code orbit_size}, from which the views derive the
 * symmetry. {@code fundamental_nNN_gG}: {@code class_ordinal} (the key), {@code placement}
 * (unique), {@code orbit_size} and {@code cells}, one character per row, {@code CHR(96 + column)},
 * for the {@code solution_cell} view's "a queen on this square".
 */
@Repository
public class GenerationTables {

    /** A generation whose tables exist: its size, and whether it has a solution table. */
    public record Registered(int n, int generation, boolean withSolutions) {

        public String solutions() {
            return solutionTable(n, generation);
        }

        public String classes() {
            return fundamentalTable(n, generation);
        }
    }

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;
    private final TransactionTemplate inOneTransaction;
    private volatile Dialect dialect;

    public GenerationTables(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.named = new NamedParameterJdbcTemplate(jdbc);
        this.inOneTransaction = new TransactionTemplate(transactionManager);
    }

    /** The tables of the database behind {@code jdbc}, outside an application context (the commands that open none). */
    public static GenerationTables of(JdbcTemplate jdbc) {
        return new GenerationTables(jdbc, new DataSourceTransactionManager(jdbc.getDataSource()));
    }

    /** {@code solution_n16_g42}. */
    public static String solutionTable(int n, int generation) {
        return String.format("solution_n%02d_g%d", n, generation);
    }

    /** {@code fundamental_n16_g42}. */
    public static String fundamentalTable(int n, int generation) {
        return String.format("fundamental_n%02d_g%d", n, generation);
    }

    /** The database's dialect, looked up when first needed. */
    public Dialect dialect() {
        if (dialect == null) {
            dialect = Dialect.of(jdbc);
        }
        return dialect;
    }

    /** Every generation whose tables exist, by size and generation. */
    public List<Registered> registered() {
        return jdbc.query(
                "SELECT n, generation, with_solutions FROM stored_generation ORDER BY n, generation",
                (rs, row) -> new Registered(rs.getInt(1), rs.getInt(2), rs.getBoolean(3)));
    }

    /** The registered generation {@code generation}, if its tables exist. */
    public Optional<Registered> registered(int generation) {
        return named
                .query(
                        "SELECT n, generation, with_solutions FROM stored_generation WHERE generation = :g",
                        Map.of("g", generation),
                        (rs, row) -> new Registered(rs.getInt(1), rs.getInt(2), rs.getBoolean(3)))
                .stream()
                .findFirst();
    }

    /**
     * Registers generation {@code generation} of size {@code n} and creates its empty tables, with
     * the keys H2 keeps while it loads; the solution table only at level ALL. Registered first, so
     * that tables a crash leaves behind are known and dropped with the generation.
     */
    public void create(int n, int generation, StoredLevel level) {
        boolean withSolutions = level == StoredLevel.ALL;
        synchronized (REGISTRY) {
            inOneTransaction.executeWithoutResult(status -> {
                named.update(
                        "INSERT INTO stored_generation (generation, n, with_solutions, created_at)"
                                + " VALUES (:g, :n, :solutions, :now)",
                        new MapSqlParameterSource("g", generation)
                                .addValue("n", n)
                                .addValue("solutions", withSolutions)
                                .addValue("now", SolutionStore.now()));
                for (String statement : createStatements(dialect(), n, generation, withSolutions)) {
                    jdbc.execute(statement);
                }
            });
            views().rebuild();
        }
    }

    /**
     * Held while a generation's tables come or go and the views are written from the registry: two
     * partitions of one run do this at once, and on H2 (one process; each DDL statement commits by
     * itself) the one that read the registry first could otherwise write the views last, without
     * the other's generation. PostgreSQL also locks the registry, for other processes.
     */
    private static final Object REGISTRY = new Object();

    /** PostgreSQL: a B-tree of rows that never change, its pages filled (the default, 90, leaves a tenth free). */
    private static final String FULL_PAGES = " WITH (fillfactor = 100)";

    /**
     * The type of a solution's class ordinal: {@code INTEGER} up to n = 19 (U(19) = 621,012,754 <
     * 2^31), {@code BIGINT} beyond. On PostgreSQL the class index's entry is then 16 bytes instead
     * of 24 (docs/sql.md); a condition with a BIGINT value still uses it.
     */
    public static String classOrdinalType(int n) {
        return n < 20 ? "INTEGER" : "BIGINT";
    }

    /** The statements that create generation {@code generation}'s empty tables. */
    public static List<String> createStatements(Dialect dialect, int n, int generation, boolean withSolutions) {
        String classes = fundamentalTable(n, generation);
        String solutions = solutionTable(n, generation);
        String classOrdinal = " class_ordinal " + classOrdinalType(n) + " NOT NULL,";
        List<String> statements = new ArrayList<>();
        if (dialect == Dialect.H2) {
            statements.add("CREATE TABLE IF NOT EXISTS " + classes + " (class_ordinal BIGINT NOT NULL PRIMARY KEY,"
                    + " placement VARCHAR(96) NOT NULL, orbit_size SMALLINT NOT NULL, cells VARCHAR(32) NOT NULL)");
            statements.add(
                    "CREATE UNIQUE INDEX IF NOT EXISTS " + classes + "_placement ON " + classes + " (placement)");
            if (withSolutions) {
                statements.add("CREATE TABLE IF NOT EXISTS " + solutions + " (ordinal BIGINT NOT NULL PRIMARY KEY,"
                        + " placement VARCHAR(96) NOT NULL," + classOrdinal + " transform SMALLINT NOT NULL,"
                        + " orbit_size SMALLINT NOT NULL)");
                // Fed in ordinal order, the text index takes its entries almost in its own order.
                statements.add("CREATE UNIQUE INDEX IF NOT EXISTS " + solutions + "_placement ON " + solutions
                        + " (placement)");
            }
        } else {
            // Fixed-width columns first: no padding between them.
            statements.add("CREATE TABLE IF NOT EXISTS " + classes + " (class_ordinal BIGINT NOT NULL,"
                    + " orbit_size SMALLINT NOT NULL, placement VARCHAR(96) NOT NULL, cells VARCHAR(32) NOT NULL)");
            if (withSolutions) {
                // Every column of the view as it is, without a cast a condition on it could not see through.
                statements.add("CREATE TABLE IF NOT EXISTS " + solutions + " (ordinal BIGINT NOT NULL,"
                        + classOrdinal + " transform SMALLINT NOT NULL, orbit_size SMALLINT NOT NULL,"
                        + " placement VARCHAR(96) NOT NULL)");
            }
        }
        return statements;
    }

    /**
     * Builds what a generation's tables get once their rows are in, each statement idempotent (a
     * run killed while it built them builds the rest): on H2 the class index of the solutions; on
     * PostgreSQL every key and index, then a {@code VACUUM (ANALYZE)}: fresh planner statistics, so
     * the first query on the new rows (the publication's counts, the export) is planned knowing
     * them, and the visibility map that lets the indexes answer without reading the rows (a count
     * of the {@code solution_cell} view: docs/performance.md). {@code VACUUM} cannot
     * run in a transaction: called in one (the publish step's tasklet publishing what the watcher
     * left), the statistics come from a plain {@code ANALYZE} and the visibility map from autovacuum.
     */
    public void finish(int n, int generation, StoredLevel level) {
        boolean vacuum = !TransactionSynchronizationManager.isActualTransactionActive();
        for (String statement : finishStatements(dialect(), n, generation, level == StoredLevel.ALL, vacuum)) {
            jdbc.execute(statement);
        }
    }

    /**
     * The statements of {@link #finish}; with {@code vacuum} false, a plain {@code ANALYZE} (for a
     * migration, which runs in a transaction).
     */
    public static List<String> finishStatements(
            Dialect dialect, int n, int generation, boolean withSolutions, boolean vacuum) {
        String classes = fundamentalTable(n, generation);
        String solutions = solutionTable(n, generation);
        List<String> statements = new ArrayList<>();
        if (dialect == Dialect.POSTGRESQL) {
            // A session setting: the sorts of the index builds in memory rather than in temporary files.
            statements.add("SET maintenance_work_mem = '256MB'");
            // The tables are never updated: B-tree pages filled to the brim (the default leaves a tenth free).
            statements.add("CREATE UNIQUE INDEX IF NOT EXISTS " + classes + "_pk ON " + classes + " (class_ordinal)"
                    + FULL_PAGES);
            // Rows are stored in ordinal order, which is nearly the text order of their placements:
            // a block range index finds a placement reading a few ranges, at a thousandth of a
            // B-tree's size (docs/sql.md). Unique by construction.
            statements.add("CREATE INDEX IF NOT EXISTS " + classes + "_placement ON " + classes
                    + " USING brin (placement) WITH (pages_per_range = 32)");
            if (withSolutions) {
                statements.add("CREATE UNIQUE INDEX IF NOT EXISTS " + solutions + "_pk ON " + solutions + " (ordinal)"
                        + FULL_PAGES);
                statements.add("CREATE INDEX IF NOT EXISTS " + solutions + "_placement ON " + solutions
                        + " USING brin (placement) WITH (pages_per_range = 32)");
            }
        }
        if (withSolutions) {
            // The members of a class, and the member a symmetry makes of it (the solution_cell view):
            // on H2 the entry holds the row's key, its ordinal, so the view's lookups never read the row.
            statements.add("CREATE INDEX IF NOT EXISTS " + solutions + "_class ON " + solutions
                    + " (class_ordinal, transform)" + (dialect == Dialect.POSTGRESQL ? FULL_PAGES : ""));
            if (dialect == Dialect.H2) {
                // The solution_cell view reads every class's cells once per symmetry: from this index
                // (the cells and the key) rather than from the rows, three times the bytes.
                statements.add("CREATE INDEX IF NOT EXISTS " + classes + "_cells ON " + classes + " (cells)");
            }
        }
        if (dialect == Dialect.POSTGRESQL) {
            statements.add("RESET maintenance_work_mem");
            statements.add(
                    (vacuum ? "VACUUM (ANALYZE) " : "ANALYZE ") + classes + (withSolutions ? ", " + solutions : ""));
        }
        return statements;
    }

    /**
     * Drops the solution table of a generation whose size is now kept with its classes only. In
     * this order, each step safe to repeat (on H2 each statement commits by itself): the views
     * without that table (a table a view names cannot be dropped), the table, then the registry.
     * A run killed in between leaves the generation registered with its solutions, and the next
     * run drops them again.
     */
    public void dropSolutions(Registered generation) {
        synchronized (REGISTRY) {
            inOneTransaction.executeWithoutResult(status -> {
                views().rebuildWithout(new Registered(generation.n(), generation.generation(), false));
                jdbc.execute("DROP TABLE IF EXISTS " + generation.solutions());
                named.update(
                        "UPDATE stored_generation SET with_solutions = FALSE WHERE generation = :g",
                        Map.of("g", generation.generation()));
            });
        }
    }

    /** Drops a generation's tables and forgets it: the views without them, the tables, the registry (see {@link #dropSolutions}). */
    public void drop(Registered generation) {
        synchronized (REGISTRY) {
            inOneTransaction.executeWithoutResult(status -> {
                views().rebuildWithout(null, generation.generation());
                jdbc.execute("DROP TABLE IF EXISTS " + generation.solutions());
                jdbc.execute("DROP TABLE IF EXISTS " + generation.classes());
                named.update(
                        "DELETE FROM stored_generation WHERE generation = :g", Map.of("g", generation.generation()));
            });
        }
    }

    /** The statements that write the three views for {@code generations} (for a migration). */
    public static List<String> viewStatements(List<Registered> generations) {
        return GenerationViews.statements(generations);
    }

    /** Writes the three views anew from the registered generations. */
    public void rebuildViews() {
        synchronized (REGISTRY) {
            views().rebuild();
        }
    }

    private GenerationViews views() {
        return new GenerationViews(jdbc, dialect(), inOneTransaction);
    }
}
