package dev.nqueens.settings;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lengths of time, read and shown one way everywhere. Read ({@link #parse}): as a person writes
 * them, a whole number with its unit ({@code 90d}) or ISO-8601 ({@code P90D}); never a bare
 * number, which Spring Boot would take for milliseconds. Shown ({@link #format}: progress lines,
 * the summary table, the end of a run, the web pages): {@code 0.04 s}, {@code 9.21 s},
 * {@code 42.3 s}, {@code 1 min 47 s}, {@code 2 h 05 min} — precise where it is short, readable
 * where it is long.
 */
public final class Durations {

    /** What {@link #parse} takes, for the line that refuses anything else. */
    public static final String FORMS = "a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w),"
            + " or ISO-8601 (PT5H, P90D); a bare number has no unit and is refused";

    private static final Pattern WITH_UNIT = Pattern.compile("([0-9]+)([smhdw])");

    private static final Map<String, Duration> UNITS = Map.of(
            "s",
            Duration.ofSeconds(1),
            "m",
            Duration.ofMinutes(1),
            "h",
            Duration.ofHours(1),
            "d",
            Duration.ofDays(1),
            "w",
            Duration.ofDays(7));

    private Durations() {}

    /**
     * Reads a length of time: a whole number and one of the units {@code s}, {@code m}, {@code h},
     * {@code d} (24 hours) or {@code w} (7 days), such as {@code 30s} or {@code 90d}, or an ISO-8601
     * duration as {@link Duration#parse} takes it ({@code PT5H}, {@code P90D}). Zero is taken;
     * whether it makes sense is the caller's to say.
     *
     * @throws IllegalArgumentException for anything else: a bare number, {@code ms}, {@code M},
     *     {@code 1y}, a negative length, a number too large for a {@link Duration}
     */
    public static Duration parse(String text) {
        String written = text == null ? "" : text.strip();
        try {
            Matcher withUnit = WITH_UNIT.matcher(written);
            Duration length = withUnit.matches()
                    ? UNITS.get(withUnit.group(2)).multipliedBy(Long.parseLong(withUnit.group(1)))
                    : Duration.parse(written);
            if (!length.isNegative()) {
                return length;
            }
        } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
            // refused below, with the forms that are taken
        }
        throw new IllegalArgumentException("'" + text + "' is not a length of time: " + FORMS);
    }

    public static String format(double seconds) {
        if (seconds < 10) {
            return String.format(Locale.ROOT, "%.2f s", Math.max(0, seconds));
        }
        if (seconds < 60) {
            return String.format(Locale.ROOT, "%.1f s", seconds);
        }
        long whole = Math.round(seconds);
        if (whole < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", whole / 60, whole % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", whole / 3600, whole % 3600 / 60);
    }

    /** A count with its digits grouped in threes: {@code 666,090,624}. */
    public static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
