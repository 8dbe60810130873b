package dev.nqueens.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes the views {@code solution}, {@code fundamental_solution} and {@code solution_cell} as the
 * union of the registered generations' tables (see {@link GenerationTables}). Each branch starts
 * from {@code board_summary}'s row of the size and the generation it publishes, so it shows rows
 * only once published, and a query for one size reads only that size's tables (the other branches
 * find no summary row and stop there, on H2 as on PostgreSQL). That row is a derived table joined
 * without a condition: H2 evaluates a join's condition for every row of the inner table, even one
 * that names only the outer, which slows a pass over a large size (docs/performance.md). Each run
 * writes the views anew, so a database of an earlier build gets them at its next run. The columns keep the names,
 * types and meanings they had when the views were plain joins of shared tables, but
 * {@code solution}'s {@code class_ordinal}, an {@code INTEGER} since schema version 16 (up to
 * n = 19).
 */
final class GenerationViews {

    private static final String SYMMETRY =
            "CAST(CASE %s WHEN 8 THEN 'NONE' WHEN 4 THEN 'ROT180' ELSE 'ROT90' END" + " AS VARCHAR(6))";

    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final TransactionTemplate inOneTransaction;

    GenerationViews(JdbcTemplate jdbc, Dialect dialect, TransactionTemplate inOneTransaction) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.inOneTransaction = inOneTransaction;
    }

    /**
     * Writes the three views from {@code stored_generation}, in the caller's transaction if there
     * is one. On PostgreSQL the registry is locked meanwhile, so two processes that add or drop
     * generations at once write the views one after the other.
     */
    void rebuild() {
        rebuildWithout(null, 0);
    }

    /** Writes the views as {@link #rebuild} does, but with {@code generation}'s solution table left out. */
    void rebuildWithout(GenerationTables.Registered withoutSolutions) {
        rebuildWithout(withoutSolutions, 0);
    }

    /**
     * Writes the views from the registry, leaving out generation {@code dropped} (0: none), with
     * {@code replaced} (if not null) in place of its registered entry, and any table that does not
     * exist (a run killed while it dropped a generation's tables leaves it registered).
     */
    void rebuildWithout(GenerationTables.Registered replaced, int dropped) {
        inOneTransaction.executeWithoutResult(status -> {
            if (dialect == Dialect.POSTGRESQL) {
                jdbc.execute("LOCK TABLE stored_generation IN SHARE ROW EXCLUSIVE MODE");
            }
            java.util.Set<String> existing = new java.util.HashSet<>(jdbc.queryForList(
                    "SELECT LOWER(table_name) FROM information_schema.tables WHERE LOWER(table_name) LIKE 'solution\\_n%'"
                            + " OR LOWER(table_name) LIKE 'fundamental\\_n%'",
                    String.class));
            List<GenerationTables.Registered> generations = new ArrayList<>();
            for (GenerationTables.Registered g : jdbc.query(
                    "SELECT n, generation, with_solutions FROM stored_generation ORDER BY n, generation",
                    (rs, row) -> new GenerationTables.Registered(rs.getInt(1), rs.getInt(2), rs.getBoolean(3)))) {
                if (g.generation() == dropped || !existing.contains(g.classes())) {
                    continue;
                }
                if (replaced != null && replaced.generation() == g.generation()) {
                    g = replaced;
                }
                generations.add(new GenerationTables.Registered(
                        g.n(), g.generation(), g.withSolutions() && existing.contains(g.solutions())));
            }
            for (String statement : statements(generations)) {
                jdbc.execute(statement);
            }
        });
    }

    /** The statements that write the views for {@code generations}, with their comments. */
    static List<String> statements(List<GenerationTables.Registered> generations) {
        List<GenerationTables.Registered> withSolutions = generations.stream()
                .filter(GenerationTables.Registered::withSolutions)
                .toList();
        List<String> statements = new ArrayList<>();
        statements.add("CREATE OR REPLACE VIEW solution AS "
                + union(
                        withSolutions,
                        GenerationViews::solutions,
                        "SELECT b.n, CAST(NULL AS BIGINT) AS ordinal, CAST(NULL AS VARCHAR(96)) AS placement,"
                                + " CAST(NULL AS INTEGER) AS class_ordinal, CAST(NULL AS SMALLINT) AS orbit_size,"
                                + " CAST(NULL AS VARCHAR(6)) AS symmetry FROM board_summary b WHERE 1 = 0"));
        statements.add("CREATE OR REPLACE VIEW fundamental_solution AS "
                + union(
                        generations,
                        GenerationViews::classes,
                        "SELECT b.n, CAST(NULL AS BIGINT) AS class_ordinal, CAST(NULL AS VARCHAR(96)) AS placement,"
                                + " CAST(NULL AS SMALLINT) AS orbit_size, CAST(NULL AS VARCHAR(6)) AS symmetry"
                                + " FROM board_summary b WHERE 1 = 0"));
        statements.add("CREATE OR REPLACE VIEW solution_cell AS "
                + union(
                        withSolutions,
                        GenerationViews::cells,
                        "SELECT b.n, CAST(NULL AS SMALLINT) AS queen_row, CAST(NULL AS SMALLINT) AS queen_column,"
                                + " CAST(NULL AS BIGINT) AS ordinal FROM board_summary b WHERE 1 = 0"));
        statements.addAll(COMMENTS);
        return statements;
    }

    private static String union(
            List<GenerationTables.Registered> generations,
            Function<GenerationTables.Registered, String> branch,
            String empty) {
        if (generations.isEmpty()) {
            return empty;
        }
        return String.join(" UNION ALL ", generations.stream().map(branch).toList());
    }

    /** The summary row of {@code g}'s size if {@code g} is published at one of {@code levels}: the derived table b. */
    private static String published(GenerationTables.Registered g, String levels) {
        return "(SELECT n FROM board_summary WHERE n = " + g.n() + " AND generation = " + g.generation()
                + " AND stored IN (" + levels + ")) b";
    }

    private static String solutions(GenerationTables.Registered g) {
        return "SELECT b.n, s.ordinal, s.placement, s.class_ordinal, s.orbit_size, "
                + String.format(SYMMETRY, "s.orbit_size") + " AS symmetry FROM " + published(g, "'ALL'")
                + " CROSS JOIN " + g.solutions() + " s";
    }

    private static String classes(GenerationTables.Registered g) {
        return "SELECT b.n, f.class_ordinal, f.placement, f.orbit_size, " + String.format(SYMMETRY, "f.orbit_size")
                + " AS symmetry FROM " + published(g, "'ALL', 'FUNDAMENTAL'") + " CROSS JOIN " + g.classes() + " f";
    }

    /**
     * A solution has a queen on a square exactly when its class's representative has one on the
     * square the solution's symmetry takes there: the representatives with a queen on each of the
     * (at most 8) source squares of the square asked for, then their solutions of that symmetry,
     * by the solution table's class index. The inner join of squares and classes is a derived table
     * so that H2 plans it first, from the square asked for.
     */
    private static String cells(GenerationTables.Registered g) {
        return "SELECT b.n, x.queen_row, x.queen_column, s.ordinal FROM " + published(g, "'ALL'") + " CROSS JOIN"
                + " (SELECT t.image_row AS queen_row, t.image_column AS queen_column, t.transform, f.class_ordinal"
                + " FROM square_symmetry t JOIN " + g.classes() + " f ON t.n = " + g.n()
                + " AND SUBSTRING(f.cells FROM t.source_row FOR 1) = CHR(96 + t.source_column)) x JOIN "
                + g.solutions() + " s ON s.class_ordinal = x.class_ordinal AND s.transform = x.transform";
    }

    private static final List<String> COMMENTS = List.of(
            "COMMENT ON VIEW fundamental_solution IS 'One row per symmetry class of each published size: its"
                    + " representative, the lexicographically smallest member'",
            "COMMENT ON COLUMN fundamental_solution.class_ordinal IS 'Class number, in lexicographic order of the"
                    + " representatives'",
            "COMMENT ON COLUMN fundamental_solution.placement IS 'The representative: 1-based columns, top row first'",
            "COMMENT ON COLUMN fundamental_solution.orbit_size IS 'Members of the class: 1, 2, 4 or 8'",
            "COMMENT ON COLUMN fundamental_solution.symmetry IS 'ROT90, ROT180 or NONE'",
            "COMMENT ON VIEW solution IS 'Every solution of the published sizes stored at level ALL, with its rank"
                    + " and class'",
            "COMMENT ON COLUMN solution.ordinal IS '1-based lexicographic rank among the solutions of size n (No. 1"
                    + " of n = 8 is 1 5 8 6 3 7 2 4)'",
            "COMMENT ON COLUMN solution.placement IS '1-based column of each row''s queen, top row first, space"
                    + " separated'",
            "COMMENT ON COLUMN solution.class_ordinal IS 'The class (fundamental_solution.class_ordinal)'",
            "COMMENT ON COLUMN solution.orbit_size IS 'Members of the class: 1, 2, 4 or 8'",
            "COMMENT ON COLUMN solution.symmetry IS 'ROT90, ROT180 or NONE'",
            "COMMENT ON VIEW solution_cell IS 'One row per queen of every published solution: WHERE n = ? AND"
                    + " queen_row = ? AND queen_column = ?'",
            "COMMENT ON COLUMN solution_cell.queen_row IS 'Row of the queen, 1 = top'",
            "COMMENT ON COLUMN solution_cell.queen_column IS 'Column of the queen, 1 = left'",
            "COMMENT ON COLUMN solution_cell.ordinal IS 'The solution (solution.ordinal of size n)'");
}
