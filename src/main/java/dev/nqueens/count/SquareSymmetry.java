package dev.nqueens.count;

/** The 8 symmetries of the n×n square as maps of squares (row, column). */
final class SquareSymmetry {

    /** How many there are; index 0 is the identity. */
    static final int COUNT = 8;

    private SquareSymmetry() {
    }

    /**
     * Symmetry {@code g} of the n×n board applied to square (row, column), packed as
     * {@code row << 8 | column}: 0 identity, 1..3 quarter, half and three-quarter turns, 4..7 the
     * mirrors (vertical axis, horizontal axis, main and anti-diagonal).
     *
     * @throws IllegalArgumentException if {@code g} is outside {@code 0..7}
     */
    static int transform(int n, int g, int row, int column) {
        int m = n - 1;
        return switch (g) {
            case 0 -> row << 8 | column;
            case 1 -> column << 8 | (m - row);
            case 2 -> (m - row) << 8 | (m - column);
            case 3 -> (m - column) << 8 | row;
            case 4 -> row << 8 | (m - column);
            case 5 -> (m - row) << 8 | column;
            case 6 -> column << 8 | row;
            case 7 -> (m - column) << 8 | (m - row);
            default -> throw new IllegalArgumentException("symmetry " + g + " is outside 0..7");
        };
    }
}
