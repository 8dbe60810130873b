package dev.nqueens.cli;

import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Checks the values of options, each with one line that names the option, the value and what is
 * allowed. Options are read as text and checked here, before anything is started, so that every
 * command words its refusals alike.
 */
final class Options {

    /** The output formats of {@code sql} and {@code history}. */
    static final List<String> FORMATS = List.of("table", "csv", "json");

    private Options() {
    }

    /** A list of sizes and ranges, as {@code --sizes} takes it. */
    static BoardSizes sizes(String text) {
        try {
            return BoardSizes.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(e.getMessage());
        }
    }

    /** The one board size a command such as {@code show 8} takes. */
    static int size(String command, String text) {
        String allowed = "a board size " + BoardSizes.MIN + ".." + BoardSizes.MAX;
        int n;
        try {
            n = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidInputException("invalid size '" + text + "' for " + command + ": " + allowed
                    + " (" + command + " takes one size)");
        }
        if (n < BoardSizes.MIN || n > BoardSizes.MAX) {
            throw new InvalidInputException("invalid size '" + text + "' for " + command + ": " + allowed
                    + BoardSizes.beyondTheEngine(n).map(beyond -> " (" + beyond + ")").orElse(""));
        }
        return n;
    }

    /** A whole number of at least 1. */
    static int positive(String option, String text, String allowed) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with what is allowed
        }
        throw new InvalidInputException("invalid value '" + text + "' for " + option + ": " + allowed);
    }

    /** A storage limit: a board size, or 0 for none. */
    static int storageLimit(String option, String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 0 && value <= BoardSizes.MAX) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with what is allowed
        }
        throw new InvalidInputException("invalid value '" + text + "' for " + option + ": a board size 0.."
                + BoardSizes.MAX + " (0 = none)");
    }

    /** A time window: a length of time longer than zero, such as {@code 5h}, {@code 90m} or {@code PT5H}. */
    static Duration window(String option, String text) {
        Duration window = duration(option, text);
        if (window.isZero()) {
            throw new InvalidInputException("invalid value '" + text + "' for " + option
                    + ": the window must be longer than zero");
        }
        return window;
    }

    /** A length of time as {@link Durations#parse} reads it: {@code 90d}, {@code 12h}, {@code P90D}. */
    static Duration duration(String option, String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("invalid value '" + text + "' for " + option + ": " + Durations.FORMS);
        }
    }

    /** A TCP port. */
    static int port(String option, String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 1 && value <= 65535) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with what is allowed
        }
        throw new InvalidInputException("invalid value '" + text + "' for " + option + ": a TCP port 1..65535");
    }

    /** An output format: table, csv or json. */
    static String format(String text) {
        String format = text.trim().toLowerCase(Locale.ROOT);
        if (!FORMATS.contains(format)) {
            throw new InvalidInputException("invalid value '" + text + "' for --format: table, csv or json");
        }
        return format;
    }
}
