package dev.nqueens.store;

import dev.nqueens.board.Symmetry;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;

/**
 * The squares of a board under its symmetries ({@code square_symmetry}, which the
 * {@code solution_cell} view joins), and the rows of the cell table a migration (V7) filled before
 * a class's queens were kept with the class.
 */
public final class SolutionCells {

    /**
     * The insert for {@code table} as it was before generations (V7 fills the cells of that schema),
     * parameters n, queen_row, queen_column, class_ordinal.
     */
    public static String insert(String table) {
        return "INSERT INTO " + table + " (n, queen_row, queen_column, class_ordinal) VALUES (?, ?, ?, ?)";
    }

    /** The insert of {@code square_symmetry}: n, image_row, image_column, transform, source_row, source_column. */
    public static final String SQUARE_SYMMETRY_INSERT = "INSERT INTO square_symmetry (n, image_row, image_column,"
            + " transform, source_row, source_column) VALUES (?, ?, ?, ?, ?, ?)";

    private SolutionCells() {}

    /** Binds the 8 n² rows of {@code square_symmetry} for size {@code n}: where each symmetry takes each square. */
    static BatchPreparedStatementSetter squareSymmetry(int n) {
        return new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement ps, int i) throws SQLException {
                bindSquareSymmetry(ps, n, i);
            }

            @Override
            public int getBatchSize() {
                return 8 * n * n;
            }
        };
    }

    /**
     * Binds row {@code i} (0 ≤ i < 8 n²) of size {@code n}'s {@code square_symmetry} to
     * {@link #SQUARE_SYMMETRY_INSERT}: symmetry i / n², source square (i / n mod n, i mod n).
     */
    public static void bindSquareSymmetry(PreparedStatement ps, int n, int i) throws SQLException {
        int transform = i / (n * n);
        int row = i / n % n;
        int column = i % n;
        int image = Symmetry.square(n, transform, row, column);
        ps.setInt(1, n);
        ps.setInt(2, Symmetry.row(image) + 1);
        ps.setInt(3, Symmetry.column(image) + 1);
        ps.setInt(4, transform);
        ps.setInt(5, row + 1);
        ps.setInt(6, column + 1);
    }

    /**
     * The 1-based column of each row's queen, read from a stored placement ("1 5 8 6 3 7 2 4").
     *
     * @throws IllegalArgumentException if {@code placement} does not have {@code n} columns
     */
    public static int[] columnsOf(String placement, int n) {
        String[] parts = placement.split(" ");
        if (parts.length != n) {
            throw new IllegalArgumentException("placement '" + placement + "' does not have " + n + " columns");
        }
        int[] columns = new int[n];
        for (int row = 0; row < n; row++) {
            columns[row] = Integer.parseInt(parts[row]);
        }
        return columns;
    }

    /** Binds one row of {@link #insert}: the queen of 0-based {@code row} in 1-based {@code column}. */
    public static void bindCell(PreparedStatement ps, int n, int row, int column, long classOrdinal)
            throws SQLException {
        ps.setInt(1, n);
        ps.setInt(2, row + 1);
        ps.setInt(3, column);
        ps.setLong(4, classOrdinal);
    }
}
