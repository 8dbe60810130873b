package dev.nqueens;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The public reference data in {@code src/test/resources/reference} (its README names the OEIS
 * sources): the known counts for n = 1..27 and the 92 solutions of n = 8. Tests check the product
 * against these, never against itself.
 */
public final class Reference {

    /** The folder on the test class path. */
    public static final String FOLDER = "/reference/";

    /** One line of known-counts.csv. */
    public record Counts(int n, long total, long fundamental, long rot90, long rot180, long asymmetric) {
    }

    /** One line of n8-solutions.csv. */
    public record N8(int ordinal, String placement, String representative, int orbitSize, boolean fundamental) {

        /** The placement in the product's spaced form, "15863724" → "1 5 8 6 3 7 2 4". */
        public String spaced() {
            return String.join(" ", placement.split(""));
        }

        public String representativeSpaced() {
            return String.join(" ", representative.split(""));
        }
    }

    private Reference() {
    }

    public static List<Counts> counts() {
        return lines("known-counts.csv").stream().map(line -> line.split(","))
                .map(f -> new Counts(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                        Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5])))
                .toList();
    }

    public static Counts counts(int n) {
        return counts().stream().filter(c -> c.n() == n).findFirst().orElseThrow();
    }

    public static List<N8> n8() {
        return lines("n8-solutions.csv").stream().map(line -> line.split(","))
                .map(f -> new N8(Integer.parseInt(f[0]), f[1], f[2], Integer.parseInt(f[3]),
                        Boolean.parseBoolean(f[4])))
                .toList();
    }

    private static List<String> lines(String file) {
        try (InputStream in = Reference.class.getResourceAsStream(FOLDER + file)) {
            if (in == null) {
                throw new IOException("no " + FOLDER + file + " on the test class path");
            }
            List<String> lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII)).lines().toList();
            return lines.subList(1, lines.size()).stream().filter(line -> !line.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("reference data missing: " + e.getMessage(), e);
        }
    }
}
