package dev.nqueens.web;

import dev.nqueens.settings.Durations;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * How the counts and the time grow with n, as one inline SVG on log scales: Q(n) (discs) and U(n)
 * (squares) against the left axis, the time each size took (triangles) against the right one, one
 * marked point per published size in each series, with its exact value as a tooltip. A count of 0
 * (n = 2, 3) sits on the bottom line as a hollow mark. The time is drawn as one line per storage
 * level — every solution stored, representatives stored, counted — since storing costs more per
 * solution than counting: one line across levels would zig-zag where the level changes.
 */
final class GrowthPlot {

    private static final int WIDTH = 760;
    private static final int HEIGHT = 360;
    private static final int LEFT = 64;
    private static final int RIGHT = 64;
    private static final int TOP = 36;
    private static final int BOTTOM = 40;
    private static final int PLOT_WIDTH = WIDTH - LEFT - RIGHT;
    private static final int PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
    /** The time axis starts at 1 ms. */
    private static final int FIRST_TIME_DECADE = -3;

    private GrowthPlot() {}

    static String svg(List<BoardSummary> sizes) {
        StringBuilder svg = new StringBuilder(8192);
        svg.append("<svg id=\"growth\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"Solutions, classes and")
                .append(" time per board size, log scales\">");
        if (sizes.isEmpty()) {
            return svg.append("<text x=\"")
                    .append(WIDTH / 2)
                    .append("\" y=\"")
                    .append(HEIGHT / 2)
                    .append("\" class=\"empty\">no size published yet</text></svg>")
                    .toString();
        }
        int first = sizes.get(0).n();
        int last = sizes.get(sizes.size() - 1).n();
        long most = sizes.stream().mapToLong(BoardSummary::totalSolutions).max().orElse(1);
        int countDecades = Math.max(1, (int) Math.ceil(Math.log10(Math.max(10, most))));
        double slowest = sizes.stream()
                .mapToDouble(size -> size.elapsedMs() / 1000.0)
                .max()
                .orElse(1);
        int lastTimeDecade = Math.max(FIRST_TIME_DECADE + 1, (int) Math.ceil(Math.log10(Math.max(0.01, slowest))));
        axes(svg, first, last, countDecades, lastTimeDecade);
        series(svg, sizes, first, last, "q", "Q", size -> size.totalSolutions(), value -> countY(value, countDecades));
        series(
                svg,
                sizes,
                first,
                last,
                "u",
                "U",
                size -> size.fundamentalSolutions(),
                value -> countY(value, countDecades));
        for (StoredLevel level : StoredLevel.values()) {
            List<BoardSummary> stored =
                    sizes.stream().filter(size -> size.stored() == level).toList();
            if (!stored.isEmpty()) {
                series(
                        svg,
                        stored,
                        first,
                        last,
                        "t " + levelClass(level),
                        "time (" + describe(level) + ")",
                        size -> size.elapsedMs() / 1000.0,
                        value -> timeY(value, lastTimeDecade));
            }
        }
        legend(svg, sizes);
        return svg.append("</svg>").toString();
    }

    private static double x(int n, int first, int last) {
        return LEFT + (last == first ? PLOT_WIDTH / 2.0 : (n - first) * (double) PLOT_WIDTH / (last - first));
    }

    /** NaN for a value below the axis (drawn on the bottom line, hollow). */
    private static double countY(double value, int decades) {
        return value < 1 ? Double.NaN : TOP + PLOT_HEIGHT - Math.log10(value) / decades * PLOT_HEIGHT;
    }

    private static double timeY(double seconds, int lastDecade) {
        double decades = lastDecade - FIRST_TIME_DECADE;
        double log = Math.log10(seconds);
        return seconds <= 0 || log < FIRST_TIME_DECADE
                ? Double.NaN
                : TOP + PLOT_HEIGHT - (log - FIRST_TIME_DECADE) / decades * PLOT_HEIGHT;
    }

    private interface Scale {
        double y(double value);
    }

    private static void series(
            StringBuilder svg,
            List<BoardSummary> sizes,
            int first,
            int last,
            String name,
            String label,
            ToDoubleFunction<BoardSummary> value,
            Scale scale) {
        StringBuilder line = new StringBuilder();
        StringBuilder points = new StringBuilder();
        for (BoardSummary size : sizes) {
            double v = value.applyAsDouble(size);
            double y = scale.y(v);
            boolean below = Double.isNaN(y);
            double cy = below ? TOP + PLOT_HEIGHT : y;
            double cx = x(size.n(), first, last);
            if (!below) {
                line.append(line.length() == 0 ? "" : " ")
                        .append(number(cx))
                        .append(',')
                        .append(number(cy));
            }
            String title = "n = " + size.n() + ": " + label + " = "
                    + (name.startsWith("t") ? Durations.format(v) : Format.grouped((long) v));
            points.append("<g class=\"point ")
                    .append(name)
                    .append(below ? " below" : "")
                    .append("\" data-n=\"")
                    .append(size.n())
                    .append("\"><title>")
                    .append(title)
                    .append("</title>")
                    .append(mark(name, cx, cy))
                    .append("</g>");
        }
        svg.append("<polyline class=\"line ")
                .append(name)
                .append("\" points=\"")
                .append(line)
                .append("\"/>");
        svg.append(points);
    }

    private static String mark(String name, double x, double y) {
        return switch (name.split(" ")[0]) {
            case "q" -> "<circle cx=\"" + number(x) + "\" cy=\"" + number(y) + "\" r=\"4.5\"/>";
            case "u" -> "<rect x=\"" + number(x - 4) + "\" y=\"" + number(y - 4) + "\" width=\"8\" height=\"8\"/>";
            default -> "<path d=\"M" + number(x) + "," + number(y - 5) + " l5,9 h-10 z\"/>";
        };
    }

    private static void axes(StringBuilder svg, int first, int last, int countDecades, int lastTimeDecade) {
        svg.append("<g class=\"axes\">");
        for (int decade = 0; decade <= countDecades; decade++) {
            double y = TOP + PLOT_HEIGHT - decade * (double) PLOT_HEIGHT / countDecades;
            svg.append("<line class=\"grid\" x1=\"")
                    .append(LEFT)
                    .append("\" x2=\"")
                    .append(LEFT + PLOT_WIDTH)
                    .append("\" y1=\"")
                    .append(number(y))
                    .append("\" y2=\"")
                    .append(number(y))
                    .append("\"/>")
                    .append("<text class=\"tick left\" x=\"")
                    .append(LEFT - 6)
                    .append("\" y=\"")
                    .append(number(y + 4))
                    .append("\">")
                    .append(power(decade))
                    .append("</text>");
        }
        int timeDecades = lastTimeDecade - FIRST_TIME_DECADE;
        for (int decade = FIRST_TIME_DECADE; decade <= lastTimeDecade; decade++) {
            double y = TOP + PLOT_HEIGHT - (decade - FIRST_TIME_DECADE) * (double) PLOT_HEIGHT / timeDecades;
            svg.append("<text class=\"tick right\" x=\"")
                    .append(LEFT + PLOT_WIDTH + 6)
                    .append("\" y=\"")
                    .append(number(y + 4))
                    .append("\">")
                    .append(timeLabel(decade))
                    .append("</text>");
        }
        for (int n = first; n <= last; n++) {
            svg.append("<text class=\"tick bottom\" x=\"")
                    .append(number(x(n, first, last)))
                    .append("\" y=\"")
                    .append(TOP + PLOT_HEIGHT + 18)
                    .append("\">")
                    .append(n)
                    .append("</text>");
        }
        svg.append("<text class=\"label\" x=\"")
                .append(LEFT + PLOT_WIDTH / 2)
                .append("\" y=\"")
                .append(HEIGHT - 4)
                .append("\">board size n</text>");
        svg.append("<rect class=\"frame\" x=\"")
                .append(LEFT)
                .append("\" y=\"")
                .append(TOP)
                .append("\" width=\"")
                .append(PLOT_WIDTH)
                .append("\" height=\"")
                .append(PLOT_HEIGHT)
                .append("\"/></g>");
    }

    private static void legend(StringBuilder svg, List<BoardSummary> sizes) {
        svg.append("<g class=\"legend\">")
                .append("<g class=\"point q\">")
                .append(mark("q", LEFT + 10, 12))
                .append("</g>")
                .append("<text x=\"")
                .append(LEFT + 20)
                .append("\" y=\"16\">Q(n) solutions</text>")
                .append("<g class=\"point u\">")
                .append(mark("u", LEFT + 140, 12))
                .append("</g>")
                .append("<text x=\"")
                .append(LEFT + 150)
                .append("\" y=\"16\">U(n) classes</text>");
        int x = LEFT + 260;
        for (StoredLevel level : StoredLevel.values()) {
            if (sizes.stream().anyMatch(size -> size.stored() == level)) {
                svg.append("<g class=\"point t ")
                        .append(levelClass(level))
                        .append("\">")
                        .append(mark("t", x, 12))
                        .append("</g><text x=\"")
                        .append(x + 10)
                        .append("\" y=\"16\">time, ")
                        .append(describe(level))
                        .append("</text>");
                x += 150;
            }
        }
        svg.append("<text x=\"")
                .append(LEFT + PLOT_WIDTH)
                .append("\" y=\"30\" class=\"tick right\">time: right axis</text>")
                .append("</g>");
    }

    private static String levelClass(StoredLevel level) {
        return level.name().toLowerCase(Locale.ROOT);
    }

    private static String describe(StoredLevel level) {
        return switch (level) {
            case ALL -> "all stored";
            case FUNDAMENTAL -> "classes stored";
            case COUNT -> "counted";
        };
    }

    private static String power(int decade) {
        return decade == 0 ? "1" : decade == 1 ? "10" : "10" + superscript(decade);
    }

    private static String timeLabel(int decade) {
        return switch (decade) {
            case -3 -> "1 ms";
            case -2 -> "10 ms";
            case -1 -> "0.1 s";
            case 0 -> "1 s";
            case 1 -> "10 s";
            case 2 -> "100 s";
            default -> "10" + superscript(decade) + " s";
        };
    }

    private static String superscript(int value) {
        StringBuilder text = new StringBuilder();
        for (char digit : Integer.toString(value).toCharArray()) {
            text.append(
                    digit == '-'
                            ? '\u207B'
                            : "\u2070\u00B9\u00B2\u00B3\u2074\u2075\u2076\u2077\u2078\u2079".charAt(digit - '0'));
        }
        return text.toString();
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
