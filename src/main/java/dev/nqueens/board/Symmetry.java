package dev.nqueens.board;

/**
 * The 8 symmetries of the n×n square (4 rotations, 4 reflections), numbered as everything stored
 * numbers them ({@code transform} in the database): 0 the identity; 1, 2, 3 the quarter, half and
 * three-quarter turns clockwise; 4 the left-right mirror; 5 the top-bottom mirror; 6 the main and 7
 * the anti-diagonal reflection. With {@code m = n - 1}, a square (row r, column c), both 0-based,
 * goes to: 1 (c, m-r), 2 (m-r, m-c), 3 (m-c, r), 4 (r, m-c), 5 (m-r, c), 6 (c, r), 7 (m-c, m-r).
 * Every image of a solution is a solution, and one queen per row stays one queen per row.
 *
 * <p>Squares are packed as {@code row << 8 | column}, so that the hot loops that map every queen
 * of every solution allocate nothing.
 */
public final class Symmetry {

    /** How many there are. */
    public static final int COUNT = 8;
    /** The identity. */
    public static final int IDENTITY = 0;
    /** The quarter turn clockwise. */
    public static final int QUARTER_TURN = 1;
    /** The half turn. */
    public static final int HALF_TURN = 2;
    /** The three-quarter turn clockwise (the quarter turn anticlockwise). */
    public static final int THREE_QUARTER_TURN = 3;

    private Symmetry() {}

    /**
     * Symmetry {@code g} of the n×n board applied to square (row, column), 0-based, packed as
     * {@code row << 8 | column}.
     *
     * @throws IllegalArgumentException if {@code g} is outside {@code 0..7}
     */
    public static int square(int n, int g, int row, int column) {
        int m = n - 1;
        return switch (g) {
            case IDENTITY -> row << 8 | column;
            case QUARTER_TURN -> column << 8 | (m - row);
            case HALF_TURN -> (m - row) << 8 | (m - column);
            case THREE_QUARTER_TURN -> (m - column) << 8 | row;
            case 4 -> row << 8 | (m - column);
            case 5 -> (m - row) << 8 | column;
            case 6 -> column << 8 | row;
            case 7 -> (m - column) << 8 | (m - row);
            default -> throw outside(g);
        };
    }

    /** The row of a packed square. */
    public static int row(int square) {
        return square >>> 8;
    }

    /** The column of a packed square. */
    public static int column(int square) {
        return square & 0xff;
    }

    /**
     * Writes into {@code image} the image under symmetry {@code g} of the placement {@code columns}
     * (the 0-based column of each row's queen, one queen per row and column): the queen of row r
     * goes to square {@link #square}(n, g, r, columns[r]); {@code SymmetryTests} checks the two agree.
     *
     * @throws IllegalArgumentException if {@code g} is outside {@code 0..7}
     */
    public static void image(int g, int[] columns, int[] image) {
        int n = columns.length;
        int m = n - 1;
        // One loop per symmetry: the reducer maps every solution of a size stored ALL eight times.
        switch (g) {
            case IDENTITY -> System.arraycopy(columns, 0, image, 0, n);
            case QUARTER_TURN -> {
                for (int r = 0; r < n; r++) {
                    image[columns[r]] = m - r;
                }
            }
            case HALF_TURN -> {
                for (int r = 0; r < n; r++) {
                    image[m - r] = m - columns[r];
                }
            }
            case THREE_QUARTER_TURN -> {
                for (int r = 0; r < n; r++) {
                    image[m - columns[r]] = r;
                }
            }
            case 4 -> {
                for (int r = 0; r < n; r++) {
                    image[r] = m - columns[r];
                }
            }
            case 5 -> {
                for (int r = 0; r < n; r++) {
                    image[m - r] = columns[r];
                }
            }
            case 6 -> {
                for (int r = 0; r < n; r++) {
                    image[columns[r]] = r;
                }
            }
            case 7 -> {
                for (int r = 0; r < n; r++) {
                    image[m - columns[r]] = m - r;
                }
            }
            default -> throw outside(g);
        }
    }

    /** The symmetry that undoes {@code g}: the quarter turns undo each other, the rest themselves. */
    public static int inverse(int g) {
        return switch (g) {
            case QUARTER_TURN -> THREE_QUARTER_TURN;
            case THREE_QUARTER_TURN -> QUARTER_TURN;
            default -> {
                if (g < 0 || g >= COUNT) {
                    throw outside(g);
                }
                yield g;
            }
        };
    }

    private static IllegalArgumentException outside(int g) {
        return new IllegalArgumentException("no symmetry " + g + "; they are numbered 0..7");
    }
}
