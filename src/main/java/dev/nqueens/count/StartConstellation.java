package dev.nqueens.count;

/**
 * The queens of a solution that stand on the border lines of the board: the one of the top row,
 * of the bottom row, of the left column and of the right column. A corner queen stands on two
 * border lines at once, so a constellation has 3 or 4 queens. The 8 symmetries of the square map
 * the border onto itself, so the constellation of a transformed solution is the transformed
 * constellation: this is what lets the engine search below canonical constellations only.
 *
 * @param n the board size
 * @param top the column of the queen in row 0
 * @param bottom the column of the queen in row n-1
 * @param left the row of the queen in column 0
 * @param right the row of the queen in column n-1
 * @param symmetries how many of the 8 symmetries leave the constellation unchanged (1, 2 or 4;
 *     always a rotation group, since no constellation of n >= 2 is its own mirror image)
 */
record StartConstellation(int n, int top, int bottom, int left, int right, int symmetries) {

    /** The 8 symmetries of the square, as maps of (row, column): index 0 is the identity. */
    static final int SYMMETRY_COUNT = 8;

    /**
     * Packs the four border positions into one number, 5 bits each, so that the canonical
     * constellation of an orbit is simply the one with the smallest key.
     */
    static int key(int top, int bottom, int left, int right) {
        return top << 15 | bottom << 10 | left << 5 | right;
    }

    int key() {
        return key(top, bottom, left, right);
    }

    /** Whether a queen of the constellation stands in {@code row}. */
    boolean occupiesRow(int row) {
        return row == 0 || row == n - 1 || row == left || row == right;
    }

    /**
     * The columns of {@code row} that the constellation's queens attack, as a bitmask (bit c =
     * column c): each queen attacks its column and the two squares {@code |row - queenRow|}
     * columns away on its diagonals.
     */
    int attackedInRow(int row) {
        return attackedBy(row, 0, top) | attackedBy(row, n - 1, bottom)
                | attackedBy(row, left, 0) | attackedBy(row, right, n - 1);
    }

    /**
     * The columns of {@code row} that the bottom, left and right queens attack: what
     * {@link #attackedInRow} holds but for the top queen.
     */
    int attackedInRowBelowTop(int row) {
        return attackedBy(row, n - 1, bottom) | attackedBy(row, left, 0) | attackedBy(row, right, n - 1);
    }

    private int attackedBy(int row, int queenRow, int queenColumn) {
        int distance = Math.abs(row - queenRow);
        int mask = 1 << queenColumn;
        if (queenColumn - distance >= 0) {
            mask |= 1 << (queenColumn - distance);
        }
        if (queenColumn + distance < n) {
            mask |= 1 << (queenColumn + distance);
        }
        return mask;
    }

    /**
     * The image of this constellation under symmetry {@code g} (see {@link #transform}). It has
     * as many completions as this one, of the same symmetry, since {@code g} maps the completions
     * of one onto those of the other.
     *
     * @throws IllegalArgumentException if {@code g} is outside {@code 0..7}
     */
    StartConstellation transformed(int g) {
        int[] image = imagePositions(n, g, top, bottom, left, right);
        return new StartConstellation(n, image[0], image[1], image[2], image[3], symmetries);
    }

    /**
     * The key of the image of the border positions under symmetry {@code g} (see
     * {@link #transform}).
     */
    static int imageKey(int n, int g, int top, int bottom, int left, int right) {
        int[] image = imagePositions(n, g, top, bottom, left, right);
        return key(image[0], image[1], image[2], image[3]);
    }

    /** The border positions (top, bottom, left, right) of the image under symmetry {@code g}. */
    private static int[] imagePositions(int n, int g, int top, int bottom, int left, int right) {
        int[] rows = {0, n - 1, left, right};
        int[] columns = {top, bottom, 0, n - 1};
        int[] image = new int[4];
        for (int q = 0; q < 4; q++) {
            int packed = transform(n, g, rows[q], columns[q]);
            int r = packed >> 8;
            int c = packed & 0xff;
            // A corner queen lands on two border lines and sets both of its positions.
            if (r == 0) {
                image[0] = c;
            }
            if (r == n - 1) {
                image[1] = c;
            }
            if (c == 0) {
                image[2] = r;
            }
            if (c == n - 1) {
                image[3] = r;
            }
        }
        return image;
    }

    /**
     * Symmetry {@code g} of the n×n board applied to square (row, column), packed as
     * {@code row << 8 | column}: 0 identity, 1..3 quarter, half and three-quarter turns, 4..7 the
     * mirrors (vertical axis, horizontal axis, main and anti-diagonal).
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

    /**
     * Whether four border positions are a consistent set of non-attacking queens: a corner square
     * counts for both of its lines (so top = 0 exactly when left = 0, and so on), the other queens
     * are distinct and no two share a row, column or diagonal.
     */
    static boolean isValid(int n, int top, int bottom, int left, int right) {
        int m = n - 1;
        if ((top == 0) != (left == 0) || (top == m) != (right == 0)
                || (bottom == 0) != (left == m) || (bottom == m) != (right == m)) {
            return false;
        }
        int[] rows = {0, m, left, right};
        int[] columns = {top, bottom, 0, m};
        for (int a = 0; a < 4; a++) {
            for (int b = a + 1; b < 4; b++) {
                boolean same = rows[a] == rows[b] && columns[a] == columns[b];
                if (!same && attack(rows[a], columns[a], rows[b], columns[b])) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean attack(int r1, int c1, int r2, int c2) {
        return r1 == r2 || c1 == c2 || Math.abs(r1 - r2) == Math.abs(c1 - c2);
    }
}
