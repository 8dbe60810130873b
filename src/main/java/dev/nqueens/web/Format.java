package dev.nqueens.web;

import dev.nqueens.settings.Durations;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * How the pages show numbers, times and symmetries; the templates call it as {@code @format}. Every
 * digit is shown: counts are grouped by thin spaces, never rounded.
 */
@Component("format")
@Profile(Serve.PROFILE)
public class Format {

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'");

    /** {@code 666 090 624}, with thin spaces (U+2009) between groups of three digits. */
    public String digits(long value) {
        return grouped(value);
    }

    /** {@code 2026-12-04 20:15 UTC}; empty for none. */
    public String time(OffsetDateTime time) {
        return time == null ? "" : UTC.format(time.withOffsetSameInstant(ZoneOffset.UTC));
    }

    /** A duration as the command line shows it ({@code 1 min 05 s}). */
    public String seconds(double seconds) {
        return Durations.format(seconds);
    }

    /** What a class's symmetry type means. */
    public String symmetry(String symmetry) {
        return switch (symmetry) {
            case "ROT90" -> "unchanged by a quarter turn (ROT90)";
            case "ROT180" -> "unchanged by a half turn (ROT180)";
            default -> "no symmetry (NONE)";
        };
    }

    /** {@link #digits} for code that draws (the growth plot's titles). */
    static String grouped(long value) {
        String plain = Long.toString(value);
        StringBuilder grouped = new StringBuilder();
        for (int i = 0; i < plain.length(); i++) {
            if (i > 0 && (plain.length() - i) % 3 == 0) {
                grouped.append('\u2009');
            }
            grouped.append(plain.charAt(i));
        }
        return grouped.toString();
    }
}
