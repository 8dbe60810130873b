package db.migration;

import dev.nqueens.store.SolutionCells;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Fills {@code solution_cell} (and {@code staged_solution_cell}) for the solutions stored before
 * V6 created them: reads the placements in streamed batches and inserts one row per queen. Runs
 * in Flyway's migration transaction, so a database is migrated either with every cell or not at
 * all. In Java because splitting a placement into rows has no portable SQL.
 */
public class V7__Fill_solution_cells extends BaseJavaMigration {

    private static final int BATCH = 5_000;

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        fill(connection, "stored_solution", "solution_cell");
        fill(connection, "staged_solution", "staged_solution_cell");
    }

    private static void fill(Connection connection, String solutions, String cells) throws SQLException {
        try (Statement read = connection.createStatement();
                PreparedStatement insert = connection.prepareStatement(SolutionCells.insert(cells))) {
            read.setFetchSize(BATCH);
            int pending = 0;
            try (ResultSet rows = read.executeQuery("SELECT n, ordinal, placement FROM " + solutions)) {
                while (rows.next()) {
                    int n = rows.getInt(1);
                    long ordinal = rows.getLong(2);
                    int[] columns = SolutionCells.columnsOf(rows.getString(3), n);
                    for (int row = 0; row < n; row++) {
                        insert.setInt(1, n);
                        insert.setInt(2, row + 1);
                        insert.setInt(3, columns[row]);
                        insert.setLong(4, ordinal);
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
