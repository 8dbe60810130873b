package dev.nqueens.web;

import dev.nqueens.solver.Placement;

/**
 * A placement drawn as an SVG chessboard, one unit per square, row 1 at the top: the dark squares
 * over a light background, a queen as a disc in its square. The element carries the placement
 * itself ({@code data-placement="1 5 8 6 3 7 2 4"}) so a reader can compare picture and data.
 */
final class BoardPicture {

    private BoardPicture() {
    }

    static String svg(String placement, int pixels) {
        Placement queens = Placement.parse(placement);
        int n = queens.size();
        StringBuilder svg = new StringBuilder(64 * n * n);
        svg.append("<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(n).append(' ')
                .append(n).append("\" width=\"").append(pixels).append("\" height=\"").append(pixels)
                .append("\" data-placement=\"").append(Html.escape(placement)).append("\" role=\"img\" aria-label=\"")
                .append("queens in columns ").append(Html.escape(placement)).append(", row by row\">");
        svg.append("<rect class=\"light\" width=\"").append(n).append("\" height=\"").append(n).append("\"/>");
        for (int row = 0; row < n; row++) {
            for (int column = (row + 1) % 2; column < n; column += 2) {
                svg.append("<rect class=\"dark\" x=\"").append(column).append("\" y=\"").append(row)
                        .append("\" width=\"1\" height=\"1\"/>");
            }
        }
        for (int row = 0; row < n; row++) {
            svg.append("<circle class=\"queen\" cx=\"").append(queens.column(row)).append(".5\" cy=\"").append(row)
                    .append(".5\" r=\"0.34\"/>");
        }
        return svg.append("</svg>").toString();
    }
}
