package dev.nqueens.settings;

import java.util.Locale;

/**
 * How every output shows a length of time, one rule everywhere (progress lines, the summary table,
 * the end of a run, the web pages): {@code 0.04 s}, {@code 9.21 s}, {@code 42.3 s},
 * {@code 1 min 47 s}, {@code 2 h 05 min} — precise where it is short, readable where it is long.
 */
public final class Durations {

    private Durations() {
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
