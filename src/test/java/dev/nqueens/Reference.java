package dev.nqueens;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Facts from the public record for the tests: the known counts for n = 1..27, typed in from the
 * OEIS, and the 92 solutions of n = 8 ({@code src/test/resources/reference}, whose README says how
 * they are written). Tests check the product against these, never against itself.
 */
public final class Reference {

    /** The folder on the test class path. */
    public static final String FOLDER = "/reference/";

    /** Q(n), all solutions of n = 1..27: OEIS A000170. */
    static final long[] A000170 = {
        1,
        0,
        0,
        2,
        10,
        4,
        40,
        92,
        352,
        724,
        2680,
        14200,
        73712,
        365596,
        2279184L,
        14772512L,
        95815104L,
        666090624L,
        4968057848L,
        39029188884L,
        314666222712L,
        2691008701644L,
        24233937684440L,
        227514171973736L,
        2207893435808352L,
        22317699616364044L,
        234907967154122528L
    };

    /** U(n), solutions distinct under rotations and reflections (fundamental), n = 1..27: OEIS A002562. */
    static final long[] A002562 = {
        1,
        0,
        0,
        1,
        2,
        1,
        6,
        12,
        46,
        92,
        341,
        1787,
        9233,
        45752,
        285053,
        1846955L,
        11977939L,
        83263591L,
        621012754L,
        4878666808L,
        39333324973L,
        336376244042L,
        3029242658210L,
        28439272956934L,
        275986683743434L,
        2789712466510289L,
        29363495934315694L
    };

    /** R(n), solutions unchanged by a quarter turn, n = 1..27: OEIS A033148. */
    static final long[] A033148 = {
        1, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 8, 8, 0, 0, 64, 128, 0, 0, 480, 704, 0, 0, 3328, 3264, 0, 0
    };

    /**
     * The counts of one size. {@code rot90}: classes unchanged by a quarter turn (orbit size 2);
     * {@code rot180}: unchanged by a half turn but not a quarter turn (orbit size 4);
     * {@code asymmetric}: no symmetry (orbit size 8). n = 1 is the exception: its single queen is
     * unchanged by all eight symmetries, and it is listed under {@code rot90}.
     */
    public record Counts(int n, long total, long fundamental, long rot90, long rot180, long asymmetric) {

        /** These counts as the columns of the size's row in {@code board_summary}. */
        public Map<String, Object> summaryColumns() {
            return Map.of(
                    "total_solutions", total,
                    "fundamental_solutions", fundamental,
                    "rot90_classes", rot90,
                    "rot180_classes", rot180,
                    "asymmetric_classes", asymmetric);
        }
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

    private Reference() {}

    /**
     * The counts for n = 1..27. The split by symmetry follows from Q, U and R by Burnside's lemma
     * (A002562: U = (Q + P + 2R) / 8, P = A032522 the solutions unchanged by a half turn): no
     * solution for n > 1 is unchanged by a reflection, a quarter-turn class has both its members in
     * R and a half-turn class all four of its members in P, so rot90 = R / 2 and rot180 = (P - R) / 4.
     */
    public static List<Counts> counts() {
        List<Counts> counts = new ArrayList<>();
        counts.add(new Counts(1, 1, 1, 1, 0, 0));
        for (int n = 2; n <= A000170.length; n++) {
            long q = A000170[n - 1];
            long u = A002562[n - 1];
            long r = A033148[n - 1];
            long p = 8 * u - q - 2 * r;
            long rot90 = r / 2;
            long rot180 = (p - r) / 4;
            counts.add(new Counts(n, q, u, rot90, rot180, u - rot90 - rot180));
        }
        return List.copyOf(counts);
    }

    public static Counts counts(int n) {
        return counts().stream().filter(c -> c.n() == n).findFirst().orElseThrow();
    }

    public static List<N8> n8() {
        return lines("n8-solutions.csv").stream()
                .map(line -> line.split(","))
                .map(f ->
                        new N8(Integer.parseInt(f[0]), f[1], f[2], Integer.parseInt(f[3]), Boolean.parseBoolean(f[4])))
                .toList();
    }

    private static List<String> lines(String file) {
        try (InputStream in = Reference.class.getResourceAsStream(FOLDER + file)) {
            if (in == null) {
                throw new IOException("no " + FOLDER + file + " on the test class path");
            }
            List<String> lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))
                    .lines()
                    .toList();
            return lines.subList(1, lines.size()).stream()
                    .filter(line -> !line.isBlank())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("reference data missing: " + e.getMessage(), e);
        }
    }
}
