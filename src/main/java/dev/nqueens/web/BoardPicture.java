package dev.nqueens.web;

import dev.nqueens.solver.Placement;
import java.util.ArrayList;
import java.util.List;

/**
 * What the template {@code board.html} draws of a placement: an SVG chessboard of n × n units, row 1
 * at the top, its dark squares over a light background and a disc for each queen; the element
 * carries the placement itself ({@code data-placement="1 5 8 6 3 7 2 4"}) so a reader can compare
 * picture and data.
 *
 * @param n the board size
 * @param placement the placement as stored, 1-based columns
 * @param pixels the drawn width and height
 * @param darkSquares the squares drawn dark: (row + column) odd, 0-based
 * @param queens the square of each row's queen, 0-based
 */
public record BoardPicture(int n, String placement, int pixels, List<Square> darkSquares, List<Square> queens) {

    /** A square, 0-based from the top left corner. */
    public record Square(int row, int column) {}

    /** The picture of {@code placement}, {@code pixels} wide: between 96 and 160, 16 a row between. */
    static BoardPicture of(String placement) {
        Placement queens = Placement.parse(placement);
        int n = queens.size();
        List<Square> dark = new ArrayList<>(n * n / 2);
        for (int row = 0; row < n; row++) {
            for (int column = (row + 1) % 2; column < n; column += 2) {
                dark.add(new Square(row, column));
            }
        }
        List<Square> placed = new ArrayList<>(n);
        for (int row = 0; row < n; row++) {
            placed.add(new Square(row, queens.column(row)));
        }
        return new BoardPicture(
                n, placement, Math.max(96, Math.min(160, 16 * n)), List.copyOf(dark), List.copyOf(placed));
    }
}
