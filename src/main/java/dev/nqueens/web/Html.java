package dev.nqueens.web;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The frame of every page and the escaping and number formats they share; no script, one style sheet. */
final class Html {

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'");

    private Html() {
    }

    static String page(String title, String body) {
        return """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>%s</title>
                <link rel="stylesheet" href="/nqueens.css">
                </head>
                <body>
                <header><a class="home" href="/">nqueens</a> <nav><a href="/">Report</a> <a href="/api/sizes">API</a>
                <a href="/actuator/health">Health</a></nav></header>
                <main>
                %s
                </main>
                </body>
                </html>
                """.formatted(escape(title), body);
    }

    /** Text for an element or an attribute value. */
    static String escape(Object value) {
        String text = value == null ? "" : value.toString();
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }

    static String time(OffsetDateTime time) {
        return time == null ? "" : UTC.format(time.withOffsetSameInstant(ZoneOffset.UTC));
    }

    static String seconds(double seconds) {
        return dev.nqueens.settings.Durations.format(seconds);
    }

    /** A whole number with thin spaces between groups of three digits, every digit shown. */
    static String digits(long value) {
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
