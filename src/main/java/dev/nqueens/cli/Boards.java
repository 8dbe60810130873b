package dev.nqueens.cli;

import dev.nqueens.solver.Placement;

/** Draws a placement as the course project did: one line per row, {@code Q} for the queen, {@code .} else. */
final class Boards {

    private Boards() {}

    static String render(String placement) {
        Placement queens = Placement.parse(placement);
        int n = queens.size();
        StringBuilder board = new StringBuilder(n * (2 * n + 1));
        for (int row = 0; row < n; row++) {
            for (int column = 0; column < n; column++) {
                if (column > 0) {
                    board.append(' ');
                }
                board.append(queens.column(row) == column ? 'Q' : '.');
            }
            board.append(System.lineSeparator());
        }
        return board.toString();
    }
}
