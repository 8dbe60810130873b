package dev.nqueens.cli;

import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The converters of the options' values, which picocli runs as it parses: a value they refuse is
 * bad input before anything is started, one line naming the option, the value and what is allowed
 * ({@link NqueensCommand}).
 */
final class Options {

    private Options() {}

    /** A list of sizes and ranges, as {@code --sizes} takes it. */
    static final class Sizes implements ITypeConverter<BoardSizes> {
        @Override
        public BoardSizes convert(String text) {
            try {
                return BoardSizes.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** The one board size a command such as {@code show 8} takes. */
    static final class Size implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return whole(
                    text, BoardSizes.MIN, BoardSizes.MAX, "one board size " + BoardSizes.MIN + ".." + BoardSizes.MAX);
        }
    }

    /** A whole number of at least 1: threads, lines, solutions. */
    static final class Positive implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return whole(text, 1, Integer.MAX_VALUE, "a whole number >= 1");
        }
    }

    /** A storage limit: a board size, or 0 for none. */
    static final class StorageLimit implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return whole(text, 0, BoardSizes.MAX, "a board size 0.." + BoardSizes.MAX + " (0 = none)");
        }
    }

    /** A TCP port. */
    static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return whole(text, 1, 65535, "a TCP port 1..65535");
        }
    }

    /** A length of time longer than zero, as {@link Durations#parse} reads it: {@code 5h}, {@code 90d}, {@code P90D}. */
    static final class Length implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            Duration length;
            try {
                length = Durations.parse(text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
            if (length.isZero()) {
                throw new TypeConversionException("'" + text + "' is not a length of time longer than zero");
            }
            return length;
        }
    }

    /** A whole number min..max; refused with what is allowed, and why a size beyond the engine is not. */
    private static int whole(String text, int min, int max, String allowed) {
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + text + "' is not " + allowed);
        }
        if (value < min || value > max) {
            throw new TypeConversionException("'" + text + "' is not " + allowed
                    + BoardSizes.beyondTheEngine(value)
                            .map(beyond -> ": " + beyond)
                            .orElse(""));
        }
        return value;
    }
}
