package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FundamentalEnumeratorTests {

    private static final Path REFERENCE = Path.of("../shared/reference");

    static IntStream sizes() {
        return IntStream.rangeClosed(1, 12);
    }

    @ParameterizedTest(name = "n = {0}")
    @MethodSource("sizes")
    void enumeratesEachClassOnceInLexicographicOrder(int n) throws IOException {
        String[] expected = Files.readAllLines(REFERENCE.resolve("known-counts.csv")).get(n).split(",");
        FundamentalEnumerator enumerator = new FundamentalEnumerator(n);
        long[] byOrbit = new long[9];
        int[] previous = null;
        for (int[] p = enumerator.next(); p != null; p = enumerator.next()) {
            if (previous != null) {
                assertTrue(Arrays.compare(previous, p) < 0, "order at " + Arrays.toString(p));
            }
            byOrbit[enumerator.orbitSize()]++;
            previous = p;
        }
        long total = byOrbit[1] + 2 * byOrbit[2] + 4 * byOrbit[4] + 8 * byOrbit[8];
        assertEquals(Long.parseLong(expected[1]), total, "Q");
        assertEquals(Long.parseLong(expected[2]), byOrbit[1] + byOrbit[2] + byOrbit[4] + byOrbit[8], "U");
        assertEquals(Long.parseLong(expected[3]), byOrbit[1] + byOrbit[2], "rot90");
        assertEquals(Long.parseLong(expected[4]), byOrbit[4], "rot180");
        assertEquals(Long.parseLong(expected[5]), byOrbit[8], "asymmetric");
    }

    @Test
    void findsTheTwelveRepresentativesOfEight() throws IOException {
        List<String> expected = new ArrayList<>();
        List<String> lines = Files.readAllLines(REFERENCE.resolve("n8-solutions.csv"));
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            if (Boolean.parseBoolean(f[4])) {
                expected.add(f[1]);
            }
        }
        List<String> found = new ArrayList<>();
        FundamentalEnumerator enumerator = new FundamentalEnumerator(8);
        for (int[] p = enumerator.next(); p != null; p = enumerator.next()) {
            StringBuilder oneBased = new StringBuilder();
            for (int c : p) {
                oneBased.append(c + 1);
            }
            found.add(oneBased.toString());
        }
        assertEquals(12, expected.size());
        assertEquals(expected, found);
    }

    @Test
    void resumesRightAfterAGivenRepresentative() {
        List<int[]> all = new ArrayList<>();
        FundamentalEnumerator enumerator = new FundamentalEnumerator(10);
        for (int[] p = enumerator.next(); p != null; p = enumerator.next()) {
            all.add(p);
        }
        assertEquals(92, all.size());
        for (int k : new int[] {0, 1, 45, 90}) {
            FundamentalEnumerator resumed = new FundamentalEnumerator(10, all.get(k));
            for (int i = k + 1; i < all.size(); i++) {
                assertArrayEquals(all.get(i), resumed.next());
            }
            assertNull(resumed.next());
        }
        assertNull(new FundamentalEnumerator(10, all.get(91)).next());
    }

    @Test
    void resumesAfterASolutionThatIsNoRepresentative() {
        // 1-based 17468253: a solution in the class of 16837425 (n8-solutions.csv), not itself
        // a representative; the enumeration goes on with the first representative above it.
        int[] solution = {0, 6, 3, 5, 7, 1, 4, 2};
        List<int[]> all = new ArrayList<>();
        FundamentalEnumerator enumerator = new FundamentalEnumerator(8);
        for (int[] p = enumerator.next(); p != null; p = enumerator.next()) {
            all.add(p);
        }
        int[] expected = all.stream().filter(p -> Arrays.compare(p, solution) > 0).findFirst().orElseThrow();
        assertArrayEquals(expected, new FundamentalEnumerator(8, solution).next());
    }

    @Test
    void rejectsWhatIsNotASolution() {
        assertThrows(IllegalArgumentException.class, () -> new FundamentalEnumerator(0));
        assertThrows(IllegalArgumentException.class, () -> new FundamentalEnumerator(8, new int[] {0, 1, 2, 3, 4, 5, 6, 7}));
        assertThrows(IllegalArgumentException.class, () -> new FundamentalEnumerator(8, new int[] {0, 4, 7}));
        assertThrows(IllegalStateException.class, () -> new FundamentalEnumerator(8).orbitSize());
    }
}
