package dev.nqueens.solver;

import java.util.Arrays;

/**
 * One queen per row: {@code columns[r]} is the 0-based column of row {@code r}'s queen, top row
 * first. Printed and parsed in the product's convention: 1-based columns separated by single
 * spaces ({@code "1 5 8 6 3 7 2 4"}). Ordered lexicographically by the column sequence.
 */
public record Placement(int[] columns) implements Comparable<Placement> {

    /**
     * @throws IllegalArgumentException if a column is outside {@code 0..length-1}
     */
    public Placement {
        columns = columns.clone();
        for (int column : columns) {
            if (column < 0 || column >= columns.length) {
                throw new IllegalArgumentException("column " + (column + 1) + " is outside 1.." + columns.length);
            }
        }
    }

    /**
     * Parses the product's text form, 1-based columns separated by single spaces.
     *
     * @throws IllegalArgumentException if the text is not such a list or a column is out of range
     */
    public static Placement parse(String text) {
        String[] parts = text.trim().split(" ");
        int[] columns = new int[parts.length];
        for (int row = 0; row < parts.length; row++) {
            try {
                columns[row] = Integer.parseInt(parts[row]) - 1;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a placement: '" + text + "'");
            }
        }
        return new Placement(columns);
    }

    public int size() {
        return columns.length;
    }

    public int column(int row) {
        return columns[row];
    }

    @Override
    public int[] columns() {
        return columns.clone();
    }

    /**
     * True when no two queens share a column or a diagonal (rows are distinct by construction).
     *
     * @throws IllegalStateException if the board is wider than 32, the most whose 2n - 1 diagonals
     *     fit in a long (no board of this product is)
     */
    public boolean isSolution() {
        int n = columns.length;
        if (n > 32) {
            throw new IllegalStateException("board size " + n + " is above 32");
        }
        long used = 0;
        long down = 0;
        long up = 0;
        for (int row = 0; row < n; row++) {
            long column = 1L << columns[row];
            long diagonal = 1L << (row + columns[row]);
            long antiDiagonal = 1L << (row - columns[row] + n - 1);
            if ((used & column | down & diagonal | up & antiDiagonal) != 0) {
                return false;
            }
            used |= column;
            down |= diagonal;
            up |= antiDiagonal;
        }
        return true;
    }

    /** The text form: 1-based columns separated by single spaces. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(columns.length * 3);
        for (int row = 0; row < columns.length; row++) {
            if (row > 0) {
                text.append(' ');
            }
            text.append(columns[row] + 1);
        }
        return text.toString();
    }

    @Override
    public int compareTo(Placement other) {
        return Arrays.compare(columns, other.columns);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Placement that && Arrays.equals(columns, that.columns);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(columns);
    }
}
