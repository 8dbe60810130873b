package db.migration;

import dev.nqueens.solver.Placement;
import dev.nqueens.store.SolutionCells;
import dev.nqueens.symmetry.SymmetryReducer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Fills what V6 added, with the product's own symmetry code, for the rows stored before V6:
 * {@code square_symmetry} for their sizes, the {@code transform} of every solution and the cells of the
 * representatives of the sizes stored with every solution (live and staged). Streams the rows and
 * writes in batches, inside Flyway's migration transaction: a database is migrated whole or not at
 * all. In Java because splitting a placement and applying a symmetry have no portable SQL.
 */
public class V7__Fill_cells_and_transforms extends BaseJavaMigration {

    private static final int BATCH = 5_000;

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        fillSquareSymmetry(connection, "stored_solution");
        fillSquareSymmetry(connection, "staged_solution");
        fillTransforms(connection, "stored_solution");
        fillTransforms(connection, "staged_solution");
        fillCells(connection, "stored_solution", "fundamental_solution", "fundamental_cell");
        fillCells(connection, "staged_solution", "staged_fundamental", "staged_fundamental_cell");
    }

    /** The squares of the sizes that have solution rows in {@code solutions} (the job adds the others as it stores them). */
    private static void fillSquareSymmetry(Connection connection, String solutions) throws SQLException {
        java.util.List<Integer> sizes = new java.util.ArrayList<>();
        try (Statement read = connection.createStatement();
                ResultSet rows = read.executeQuery("SELECT DISTINCT n FROM " + solutions
                        + " s WHERE NOT EXISTS (SELECT 1 FROM square_symmetry q WHERE q.n = s.n)")) {
            while (rows.next()) {
                sizes.add(rows.getInt(1));
            }
        }
        try (PreparedStatement insert = connection.prepareStatement(SolutionCells.SQUARE_SYMMETRY_INSERT)) {
            for (int n : sizes) {
                for (int i = 0; i < 8 * n * n; i++) {
                    SolutionCells.bindSquareSymmetry(insert, n, i);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }

    private static void fillTransforms(Connection connection, String solutions) throws SQLException {
        try (Statement read = connection.createStatement();
                PreparedStatement update = connection.prepareStatement(
                        "UPDATE " + solutions + " SET transform = ? WHERE n = ? AND ordinal = ?")) {
            read.setFetchSize(BATCH);
            int pending = 0;
            SymmetryReducer reducer = null;
            try (ResultSet rows = read.executeQuery("SELECT n, ordinal, placement FROM " + solutions + " ORDER BY n")) {
                while (rows.next()) {
                    int n = rows.getInt(1);
                    if (reducer == null || reducer.size() != n) {
                        reducer = new SymmetryReducer(n);
                    }
                    update.setInt(
                            1,
                            reducer.reduce(Placement.parse(rows.getString(3))).fromRepresentative());
                    update.setInt(2, n);
                    update.setLong(3, rows.getLong(2));
                    update.addBatch();
                    if (++pending == BATCH) {
                        update.executeBatch();
                        pending = 0;
                    }
                }
            }
            if (pending > 0) {
                update.executeBatch();
            }
        }
    }

    /** The cells of the representatives of every size that has solution rows. */
    private static void fillCells(Connection connection, String solutions, String classes, String cells)
            throws SQLException {
        try (Statement read = connection.createStatement();
                PreparedStatement insert = connection.prepareStatement(SolutionCells.insert(cells))) {
            read.setFetchSize(BATCH);
            int pending = 0;
            try (ResultSet rows = read.executeQuery("SELECT f.n, f.class_ordinal, f.placement FROM " + classes
                    + " f WHERE EXISTS (SELECT 1 FROM " + solutions + " s WHERE s.n = f.n)")) {
                while (rows.next()) {
                    int n = rows.getInt(1);
                    int[] columns = SolutionCells.columnsOf(rows.getString(3), n);
                    for (int row = 0; row < n; row++) {
                        SolutionCells.bindCell(insert, n, row, columns[row], rows.getLong(2));
                        insert.addBatch();
                    }
                    if (++pending == BATCH) {
                        insert.executeBatch();
                        pending = 0;
                    }
                }
            }
            if (pending > 0) {
                insert.executeBatch();
            }
        }
    }
}
