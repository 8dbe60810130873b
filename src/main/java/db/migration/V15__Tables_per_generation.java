package db.migration;

import dev.nqueens.store.Dialect;
import dev.nqueens.store.GenerationLoader;
import dev.nqueens.store.GenerationTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Moves every kept generation (published, or being computed) out of the shared tables
 * {@code stored_solution}, {@code stored_fundamental} and {@code fundamental_cell} into tables of its
 * own ({@code solution_nNN_gG}, {@code fundamental_nNN_gG}, registered in {@code stored_generation};
 * see {@link GenerationTables}), then drops the shared tables and writes the views over the new
 * ones. A solution row now carries its class ordinal and orbit size (no more join on the
 * representative's text), a class row its queens as one character per row (the cell table of n
 * rows per class goes). The computation of a size in progress keeps its rows and gets its
 * checkpoint ({@code building_generation}). Generations nothing kept (being deleted) are dropped.
 * Each kept generation gets a new number from {@code solution_generation_seq}: before, the rows V13
 * found were generation 1 of every size, and a generation now names its tables.
 * In Java: the tables' names follow the generations, and the cells are computed from the text.
 */
public class V15__Tables_per_generation extends BaseJavaMigration {

    private static final int BATCH = 5_000;

    /** A generation to keep: its size, its number before and after, its level, and whether it is published. */
    private record Kept(int n, int old, int generation, boolean withSolutions, boolean published) {}

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        Dialect dialect = Dialect.of(connection);
        try (Statement statement = connection.createStatement()) {
            statement.execute("""
                    CREATE TABLE stored_generation (
                        generation     INTEGER NOT NULL PRIMARY KEY,
                        n              INTEGER NOT NULL CHECK (n BETWEEN 1 AND 32),
                        with_solutions BOOLEAN NOT NULL,
                        created_at     TIMESTAMP WITH TIME ZONE NOT NULL
                    )""");
            statement.execute("ALTER TABLE building_generation ADD COLUMN solutions_stored BIGINT DEFAULT 0 NOT NULL");
            statement.execute("ALTER TABLE building_generation ADD COLUMN classes_stored BIGINT DEFAULT 0 NOT NULL");
            statement.execute("ALTER TABLE building_generation ADD COLUMN last_placement VARCHAR(96)");
        }
        List<Kept> kept = kept(connection);
        List<GenerationTables.Registered> registered = new ArrayList<>();
        for (Kept generation : kept) {
            move(connection, dialect, generation);
            registered.add(new GenerationTables.Registered(
                    generation.n(), generation.generation(), generation.withSolutions()));
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("DROP VIEW solution_cell");
            statement.execute("DROP VIEW solution");
            statement.execute("DROP VIEW fundamental_solution");
            statement.execute("DROP TABLE fundamental_cell");
            statement.execute("DROP TABLE stored_solution");
            statement.execute("DROP TABLE stored_fundamental");
            for (String view : GenerationTables.viewStatements(registered)) {
                statement.execute(view);
            }
            statement.execute("COMMENT ON TABLE stored_generation IS 'Every generation (one computation of one size)"
                    + " whose tables exist: fundamental_nNN_gG, and solution_nNN_gG when with_solutions'");
            statement.execute("COMMENT ON COLUMN building_generation.solutions_stored IS 'Solutions stored so far"
                    + " by committed chunks (level ALL)'");
            statement.execute("COMMENT ON COLUMN building_generation.classes_stored IS 'Classes stored so far by"
                    + " committed chunks'");
            statement.execute("COMMENT ON COLUMN building_generation.last_placement IS 'The last solution (ALL) or"
                    + " representative (FUNDAMENTAL) stored: the computation resumes after it'");
        }
    }

    /** The generations something shows (board_summary) or builds (building_generation), with their level. */
    private static List<Kept> kept(Connection connection) throws SQLException {
        List<Kept> kept = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("""
                SELECT b.n, b.generation, b.stored = 'ALL', TRUE FROM board_summary b WHERE b.generation IS NOT NULL
                UNION ALL
                SELECT g.n, g.generation, EXISTS (SELECT 1 FROM stored_solution s WHERE s.n = g.n
                    AND s.generation = g.generation), FALSE
                FROM building_generation g
                ORDER BY 1, 2""")) {
            while (rows.next()) {
                kept.add(new Kept(rows.getInt(1), rows.getInt(2), 0, rows.getBoolean(3), rows.getBoolean(4)));
            }
        }
        List<Kept> renumbered = new ArrayList<>();
        for (Kept generation : kept) {
            try (Statement statement = connection.createStatement();
                    ResultSet next = statement.executeQuery("SELECT nextval('solution_generation_seq')")) {
                next.next();
                renumbered.add(new Kept(
                        generation.n(),
                        generation.old(),
                        next.getInt(1),
                        generation.withSolutions(),
                        generation.published()));
            }
        }
        return renumbered;
    }

    private static void move(Connection connection, Dialect dialect, Kept generation) throws SQLException {
        int n = generation.n();
        int g = generation.generation();
        int old = generation.old();
        String classes = GenerationTables.fundamentalTable(n, g);
        String solutions = GenerationTables.solutionTable(n, g);
        try (Statement statement = connection.createStatement();
                PreparedStatement register = connection.prepareStatement("INSERT INTO stored_generation"
                        + " (generation, n, with_solutions, created_at) VALUES (?, ?, ?, CURRENT_TIMESTAMP)")) {
            register.setInt(1, g);
            register.setInt(2, n);
            register.setBoolean(3, generation.withSolutions());
            register.executeUpdate();
            for (String create : GenerationTables.createStatements(dialect, n, g, generation.withSolutions())) {
                statement.execute(create);
            }
        }
        try (PreparedStatement rename = connection.prepareStatement(
                "UPDATE " + (generation.published() ? "board_summary" : "building_generation")
                        + " SET generation = ? WHERE n = ? AND generation = ?")) {
            rename.setInt(1, g);
            rename.setInt(2, n);
            rename.setInt(3, old);
            rename.executeUpdate();
        }
        long classCount = copyClasses(connection, n, old, classes);
        long solutionCount = 0;
        if (generation.withSolutions()) {
            try (PreparedStatement copy = connection.prepareStatement("INSERT INTO " + solutions
                    + " (ordinal, placement, class_ordinal, transform, orbit_size)"
                    + " SELECT s.ordinal, s.placement, f.class_ordinal, s.transform, f.orbit_size FROM stored_solution s"
                    + " JOIN stored_fundamental f ON f.n = s.n AND f.generation = s.generation"
                    + " AND f.placement = s.representative WHERE s.n = ? AND s.generation = ? ORDER BY s.ordinal")) {
                copy.setInt(1, n);
                copy.setInt(2, old);
                solutionCount = copy.executeUpdate();
            }
        }
        if (generation.published()) {
            try (Statement statement = connection.createStatement()) {
                for (String finish :
                        GenerationTables.finishStatements(dialect, n, g, generation.withSolutions(), false)) {
                    statement.execute(finish);
                }
            }
        } else {
            checkpoint(
                    connection,
                    n,
                    g,
                    generation.withSolutions() ? solutions : classes,
                    generation.withSolutions() ? "ordinal" : "class_ordinal",
                    solutionCount,
                    classCount);
        }
    }

    private static long copyClasses(Connection connection, int n, int old, String classes) throws SQLException {
        long count = 0;
        try (PreparedStatement read = connection.prepareStatement("SELECT class_ordinal, placement, orbit_size"
                        + " FROM stored_fundamental WHERE n = ? AND generation = ? ORDER BY class_ordinal");
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + classes
                        + " (class_ordinal, placement, orbit_size, cells) VALUES (?, ?, ?, ?)")) {
            read.setInt(1, n);
            read.setInt(2, old);
            read.setFetchSize(BATCH);
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    insert.setLong(1, rows.getLong(1));
                    insert.setString(2, rows.getString(2));
                    insert.setInt(3, rows.getInt(3));
                    insert.setString(4, GenerationLoader.cells(rows.getString(2)));
                    insert.addBatch();
                    if (++count % BATCH == 0) {
                        insert.executeBatch();
                    }
                }
            }
            insert.executeBatch();
        }
        return count;
    }

    /**
     * The checkpoint of a size being computed: what was copied, and its last row. A copy that is
     * not a clean prefix (a kill left stray rows) does not add up to it, and the run then computes
     * the size afresh.
     */
    private static void checkpoint(
            Connection connection, int n, int g, String table, String key, long solutions, long classes)
            throws SQLException {
        String last = null;
        try (PreparedStatement read = connection.prepareStatement("SELECT placement FROM " + table + " WHERE " + key
                + " = (SELECT MAX(" + key + ") FROM " + table + ")")) {
            try (ResultSet rows = read.executeQuery()) {
                if (rows.next()) {
                    last = rows.getString(1);
                }
            }
        }
        try (PreparedStatement update =
                connection.prepareStatement("UPDATE building_generation SET solutions_stored = ?,"
                        + " classes_stored = ?, last_placement = ? WHERE n = ? AND generation = ?")) {
            update.setLong(1, solutions);
            update.setLong(2, classes);
            update.setString(3, last);
            update.setInt(4, n);
            update.setInt(5, g);
            update.executeUpdate();
        }
    }
}
