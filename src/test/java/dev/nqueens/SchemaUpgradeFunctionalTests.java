package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.solver.Placement;
import dev.nqueens.solver.StackBacktracker;
import dev.nqueens.store.GenerationTables;
import dev.nqueens.store.SolutionCells;
import dev.nqueens.symmetry.Reduction;
import dev.nqueens.symmetry.SymmetryReducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * A database written before rows had generations (schema version 11) keeps working: the run that
 * migrates it keeps every published size, resumes a size that was being computed and one that was
 * being recomputed in the staging tables from where they were, and leaves one generation per size.
 */
@ResourceLock(TestResources.TEST_JVM)
class SchemaUpgradeFunctionalTests {

    @TempDir
    Path work;

    @Test
    void aDatabaseOfSchema11IsMigratedAndItsWorkInProgressResumed() throws Exception {
        String url = TestDatabases.h2Url(work.resolve("data/nqueens"));
        Flyway.configure()
                .dataSource(url, "sa", "")
                .locations("classpath:db/migration")
                .target("11")
                .load()
                .migrate();
        try (Connection db = DriverManager.getConnection(url, "sa", "")) {
            for (int n = 1; n <= 8; n++) {
                store(db, n, true, Long.MAX_VALUE, "");
                publish(db, n, "ALL");
            }
            store(db, 9, false, Long.MAX_VALUE, "");
            publish(db, 9, "FUNDAMENTAL");
            // Being raised to every solution in the staging tables: 200 of its 352 solutions so far.
            store(db, 9, true, 200, "staged");
            publish(db, 10, "COUNT");
            // Being computed for the first time: 100 of its 341 classes so far.
            store(db, 11, false, 100, "");
        }

        NqueensProcess.Result run = InProcess.run(
                work, "run", "--sizes", "1-9,11", "--store-all-up-to", "9", "--store-fundamental-up-to", "11");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        NqueensProcess.Result verify = InProcess.run(work, "verify");
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out())
                .contains("n=9 counts")
                .contains("n=11 counts")
                .contains("n=10 counts")
                .doesNotContain("work in progress")
                .doesNotContain("generation");
        // Made without a password (as builds before the owner's password made it): the run gave it one,
        // kept beside it for its owner alone.
        assertThatThrownBy(() -> DriverManager.getConnection(url, "sa", "").close())
                .hasMessageContaining("Wrong user name or password");
        assertThat(Files.getPosixFilePermissions(work.resolve("data/nqueens.password")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        try (Connection db = TestDatabases.openH2(work.resolve("data/nqueens"))) {
            assertThat(TestDatabases.count(
                            db, "SELECT COUNT(*) FROM flyway_schema_history WHERE version IN ('13'," + " '15')"))
                    .isEqualTo(2);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM solution WHERE n = 9"))
                    .isEqualTo(352);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM fundamental_solution WHERE n = 11"))
                    .isEqualTo(341);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM solution WHERE n = 8"))
                    .isEqualTo(92);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM board_summary WHERE n = 10 AND stored = 'COUNT'"))
                    .isEqualTo(1);
            assertThat(TestDatabases.count(
                            db, "SELECT write_count FROM batch_step_execution" + " WHERE step_name = 'solveSize:n09'"))
                    .as("n = 9 resumed after its 200 staged solutions")
                    .isEqualTo(352 - 200);
            assertThat(TestDatabases.count(
                            db, "SELECT write_count FROM batch_step_execution" + " WHERE step_name = 'solveSize:n11'"))
                    .as("n = 11 resumed after its 100 classes")
                    .isEqualTo(341 - 100);
            assertThat(
                            TestDatabases.count(
                                    db,
                                    "SELECT COUNT(*) FROM stored_generation g WHERE NOT EXISTS"
                                            + " (SELECT 1 FROM board_summary b WHERE b.n = g.n AND b.generation = g.generation)"))
                    .as("one generation per size, published")
                    .isZero();
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM stored_generation"))
                    .isEqualTo(10);
            assertThat(
                            TestDatabases.count(
                                    db,
                                    "SELECT COUNT(*) FROM information_schema.tables"
                                            + " WHERE table_name IN ('stored_solution', 'stored_fundamental', 'fundamental_cell')"))
                    .as("the shared tables are gone")
                    .isZero();
            assertThat(TestDatabases.count(
                            db,
                            "SELECT COUNT(*) FROM solution_cell WHERE n = 8 AND queen_row = 1"
                                    + " AND queen_column = 1"))
                    .isEqualTo(4);
            assertThat(TestDatabases.count(
                            db, "SELECT COUNT(*) FROM information_schema.tables" + " WHERE table_name LIKE 'staged%'"))
                    .as("the staging tables are gone")
                    .isZero();
        }
    }

    /**
     * Solution tables of schema 15 keep the class ordinal as a BIGINT: the run that migrates the
     * database to 16 makes it an INTEGER, and the views read as before.
     */
    @Test
    void classOrdinalsOfSchema15BecomeIntegers() throws Exception {
        NqueensProcess.Result first = InProcess.run(
                work, "run", "--sizes", "8-9", "--store-all-up-to", "9", "--store-fundamental-up-to", "9");
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        Path file = work.resolve("data/nqueens");
        try (Connection db = TestDatabases.openH2(file);
                Statement statement = db.createStatement()) {
            // As builds of schema 15 made them.
            statement.execute("DROP VIEW solution_cell");
            statement.execute("DROP VIEW solution");
            List<GenerationTables.Registered> registered = GenerationTables.of(
                            new JdbcTemplate(new SingleConnectionDataSource(db, true)))
                    .registered();
            for (GenerationTables.Registered generation : registered) {
                statement.execute("ALTER TABLE " + generation.solutions() + " ALTER COLUMN class_ordinal SET DATA TYPE"
                        + " BIGINT");
            }
            for (String view : GenerationTables.viewStatements(registered)) {
                statement.execute(view);
            }
            statement.execute("DELETE FROM flyway_schema_history WHERE version = '16'");
            assertThat(
                            TestDatabases.count(
                                    db,
                                    "SELECT COUNT(*) FROM information_schema.columns WHERE"
                                            + " column_name = 'class_ordinal' AND table_name LIKE 'solution\\_n%' AND UPPER(data_type) = 'BIGINT'"))
                    .isEqualTo(2);
        }

        NqueensProcess.Result again = InProcess.run(
                work, "run", "--sizes", "8-9", "--store-all-up-to", "9", "--store-fundamental-up-to", "9");

        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        NqueensProcess.Result verify = InProcess.run(work, "verify");
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        try (Connection db = TestDatabases.openH2(file)) {
            assertThat(
                            TestDatabases.count(
                                    db,
                                    "SELECT COUNT(*) FROM information_schema.columns WHERE"
                                            + " column_name = 'class_ordinal' AND table_name LIKE 'solution\\_n%' AND UPPER(data_type) = 'INTEGER'"))
                    .isEqualTo(2);
            // n = 8: 12 classes, 92 solutions; each class has as many members as its orbit.
            assertThat(TestDatabases.count(
                            db,
                            "SELECT COUNT(*) FROM solution s JOIN fundamental_solution f"
                                    + " ON f.n = s.n AND f.class_ordinal = s.class_ordinal WHERE s.n = 8"))
                    .isEqualTo(92);
            for (int classOrdinal = 1; classOrdinal <= 12; classOrdinal++) {
                assertThat(TestDatabases.count(
                                db, "SELECT COUNT(*) FROM solution WHERE n = 8 AND class_ordinal = " + classOrdinal))
                        .isEqualTo(TestDatabases.count(
                                db,
                                "SELECT orbit_size FROM" + " fundamental_solution WHERE n = 8 AND class_ordinal = "
                                        + classOrdinal));
            }
            assertThat(TestDatabases.count(
                            db,
                            "SELECT COUNT(*) FROM solution_cell WHERE n = 8 AND queen_row = 1"
                                    + " AND queen_column = 1"))
                    .isEqualTo(4);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM solution WHERE n = 9"))
                    .isEqualTo(352);
        }
    }

    /**
     * The views of earlier builds joined {@code board_summary} on a condition H2 evaluates for every
     * solution row: the next run writes them as this build does (the summary row as a derived
     * table), with the same rows.
     */
    @Test
    void viewsOfAnEarlierBuildAreWrittenAnewByTheNextRun() throws Exception {
        NqueensProcess.Result first = InProcess.run(work, "run", "--sizes", "8", "--store-all-up-to", "8");
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        Path file = work.resolve("data/nqueens");
        String oldShape = "\"board_summary\" \"b\"";
        try (Connection db = TestDatabases.openH2(file);
                Statement statement = db.createStatement()) {
            GenerationTables.Registered eight = GenerationTables.of(
                            new JdbcTemplate(new SingleConnectionDataSource(db, true)))
                    .registered()
                    .get(0);
            // As builds before 2026-12-05 wrote it (one branch).
            statement.execute("CREATE OR REPLACE VIEW solution AS SELECT b.n, s.ordinal, s.placement, s.class_ordinal,"
                    + " s.orbit_size, CAST(CASE s.orbit_size WHEN 8 THEN 'NONE' WHEN 4 THEN 'ROT180' ELSE 'ROT90' END"
                    + " AS VARCHAR(6)) AS symmetry FROM board_summary b JOIN " + eight.solutions() + " s ON b.n = 8"
                    + " AND b.generation = " + eight.generation() + " AND b.stored IN ('ALL')");
            assertThat(viewDefinition(db, "solution")).contains(oldShape);
        }

        NqueensProcess.Result again = InProcess.run(work, "run", "--sizes", "8", "--store-all-up-to", "8");

        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        try (Connection db = TestDatabases.openH2(file)) {
            assertThat(viewDefinition(db, "solution")).doesNotContain(oldShape);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM solution WHERE n = 8"))
                    .isEqualTo(92);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM solution WHERE n = 8 AND symmetry = 'ROT180'"))
                    .isEqualTo(4);
        }
    }

    private static String viewDefinition(Connection db, String view) throws SQLException {
        try (PreparedStatement query =
                db.prepareStatement("SELECT view_definition FROM information_schema.views WHERE table_name = ?")) {
            query.setString(1, view);
            try (ResultSet rows = query.executeQuery()) {
                assertThat(rows.next()).isTrue();
                return rows.getString(1);
            }
        }
    }

    private static void publish(Connection db, int n, String level) throws SQLException {
        Reference.Counts counts = Reference.counts(n);
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO board_summary (n, total_solutions,"
                + " fundamental_solutions, rot90_classes, rot180_classes, asymmetric_classes, stored, computed_at,"
                + " elapsed_ms) VALUES (?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP, 0)")) {
            insert.setInt(1, n);
            insert.setLong(2, counts.total());
            insert.setLong(3, counts.fundamental());
            insert.setLong(4, counts.rot90());
            insert.setLong(5, counts.rot180());
            insert.setLong(6, counts.asymmetric());
            insert.setString(7, level);
            insert.executeUpdate();
        }
    }

    /**
     * Stores size {@code n} as the version before generations did: its classes, and with
     * {@code everySolution} its solutions (at most {@code limit}, with their classes and their
     * representatives' cells), else at most {@code limit} classes; in the live tables or, with
     * {@code prefix} "staged", in the staging tables.
     */
    private static void store(Connection db, int n, boolean everySolution, long limit, String prefix)
            throws SQLException {
        String classes = prefix.isEmpty() ? "stored_fundamental" : "staged_fundamental";
        String solutions = prefix.isEmpty() ? "stored_solution" : "staged_solution";
        String cells = prefix.isEmpty() ? "fundamental_cell" : "staged_fundamental_cell";
        SymmetryReducer reducer = new SymmetryReducer(n);
        StackBacktracker solver = new StackBacktracker(n);
        Set<String> representatives = new HashSet<>();
        long ordinal = 0;
        try (PreparedStatement classInsert = db.prepareStatement("INSERT INTO " + classes
                        + " (n, class_ordinal, placement, orbit_size, symmetry) VALUES (?, ?, ?, ?, ?)");
                PreparedStatement solutionInsert = db.prepareStatement("INSERT INTO " + solutions
                        + " (n, ordinal, placement, representative, transform) VALUES (?, ?, ?, ?, ?)");
                PreparedStatement cellInsert = db.prepareStatement(SolutionCells.insert(cells))) {
            while (solver.next() && (everySolution ? ordinal : representatives.size()) < limit) {
                Placement placement = solver.current();
                Reduction reduction = reducer.reduce(placement);
                if (reduction.isRepresentative(placement)) {
                    representatives.add(placement.toString());
                    classInsert.setInt(1, n);
                    classInsert.setLong(2, representatives.size());
                    classInsert.setString(3, placement.toString());
                    classInsert.setInt(4, reduction.orbitSize());
                    classInsert.setString(5, reduction.symmetry().name());
                    classInsert.executeUpdate();
                    if (everySolution) {
                        int[] columns = SolutionCells.columnsOf(placement.toString(), n);
                        for (int row = 0; row < n; row++) {
                            SolutionCells.bindCell(cellInsert, n, row, columns[row], representatives.size());
                            cellInsert.executeUpdate();
                        }
                    }
                }
                if (everySolution) {
                    solutionInsert.setInt(1, n);
                    solutionInsert.setLong(2, ++ordinal);
                    solutionInsert.setString(3, placement.toString());
                    solutionInsert.setString(4, reduction.representative().toString());
                    solutionInsert.setInt(5, reduction.fromRepresentative());
                    solutionInsert.executeUpdate();
                }
            }
        }
        if (everySolution && TestDatabases.count(db, "SELECT COUNT(*) FROM square_symmetry WHERE n = " + n) == 0) {
            try (PreparedStatement square = db.prepareStatement(SolutionCells.SQUARE_SYMMETRY_INSERT)) {
                for (int i = 0; i < 8 * n * n; i++) {
                    SolutionCells.bindSquareSymmetry(square, n, i);
                    square.executeUpdate();
                }
            }
        }
    }
}
