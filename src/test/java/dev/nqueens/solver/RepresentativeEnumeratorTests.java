package dev.nqueens.solver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nqueens.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RepresentativeEnumeratorTests {

    static IntStream sizes() {
        return IntStream.rangeClosed(1, 12);
    }

    @ParameterizedTest(name = "n = {0}")
    @MethodSource("sizes")
    void enumeratesEachClassOnceInLexicographicOrder(int n) {
        Reference.Counts expected = Reference.counts(n);
        RepresentativeEnumerator enumerator = new RepresentativeEnumerator(n, null);
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
        assertEquals(expected.total(), total, "Q");
        assertEquals(expected.fundamental(), byOrbit[1] + byOrbit[2] + byOrbit[4] + byOrbit[8], "U");
        assertEquals(expected.rot90(), byOrbit[1] + byOrbit[2], "rot90");
        assertEquals(expected.rot180(), byOrbit[4], "rot180");
        assertEquals(expected.asymmetric(), byOrbit[8], "asymmetric");
    }

    @Test
    void findsTheTwelveRepresentativesOfEight() {
        List<String> expected = Reference.n8().stream()
                .filter(Reference.N8::fundamental)
                .map(Reference.N8::placement)
                .toList();
        List<String> found = new ArrayList<>();
        RepresentativeEnumerator enumerator = new RepresentativeEnumerator(8, null);
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
        RepresentativeEnumerator enumerator = new RepresentativeEnumerator(10, null);
        for (int[] p = enumerator.next(); p != null; p = enumerator.next()) {
            all.add(p);
        }
        assertEquals(92, all.size());
        for (int k : new int[] {0, 1, 45, 90}) {
            RepresentativeEnumerator resumed = new RepresentativeEnumerator(10, all.get(k));
            for (int i = k + 1; i < all.size(); i++) {
                assertArrayEquals(all.get(i), resumed.next());
            }
            assertNull(resumed.next());
        }
        assertNull(new RepresentativeEnumerator(10, all.get(91)).next());
    }

    @Test
    void resumesAfterASolutionThatIsNoRepresentative() {
        // 1-based 17468253: a solution in the class of 16837425 (n8-solutions.csv), not itself
        // a representative; the enumeration goes on with the first representative above it.
        int[] solution = {0, 6, 3, 5, 7, 1, 4, 2};
        List<int[]> all = new ArrayList<>();
        RepresentativeEnumerator enumerator = new RepresentativeEnumerator(8, null);
        for (int[] p = enumerator.next(); p != null; p = enumerator.next()) {
            all.add(p);
        }
        int[] expected = all.stream()
                .filter(p -> Arrays.compare(p, solution) > 0)
                .findFirst()
                .orElseThrow();
        assertArrayEquals(expected, new RepresentativeEnumerator(8, solution).next());
    }

    @Test
    void rejectsWhatIsNotASolution() {
        assertThrows(IllegalArgumentException.class, () -> new RepresentativeEnumerator(0, null));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RepresentativeEnumerator(8, new int[] {0, 1, 2, 3, 4, 5, 6, 7}));
        assertThrows(IllegalArgumentException.class, () -> new RepresentativeEnumerator(8, new int[] {0, 4, 7}));
        assertThrows(IllegalStateException.class, () -> new RepresentativeEnumerator(8, null).orbitSize());
    }
}
