package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class InteriorSearchTests {

    static IntStream sizes() {
        return IntStream.rangeClosed(4, 12);
    }

    static IntStream tableSizes() {
        return IntStream.rangeClosed(6, 13);
    }

    /**
     * The direct fast path (explicit stack, last two rows resolved arithmetically) and the slow path
     * (every queen placed and each solution inspected) must find the same completions below every
     * canonical constellation, in each of its 8 orientations, whatever the shape of its free rows.
     */
    @ParameterizedTest(name = "n = {0}")
    @MethodSource("sizes")
    void fastPathCountsLikeTheSlowPathInEveryOrientation(int n) {
        InteriorSearch search = new InteriorSearch(n, 0);
        long[] bySymmetry = new long[3];
        for (StartConstellations.Ranked ranked : StartConstellations.of(n)) {
            for (int g = 0; g < StartConstellation.SYMMETRY_COUNT; g++) {
                StartConstellation image = ranked.constellation().transformed(g);
                search.load(image);
                search.countBySymmetry(bySymmetry);
                long slow = bySymmetry[0] + bySymmetry[1] + bySymmetry[2];
                search.load(image);
                assertEquals(slow, search.countCompletions(), image.toString());
            }
        }
    }

    /**
     * With the last 2, 3, ... rows taken from a bottom table (the meet-in-the-middle path), the
     * count below every canonical constellation, in each orientation, must equal the slow path's.
     * The constellations are visited in list order, so tables are both rebuilt and reused.
     */
    @ParameterizedTest(name = "n = {0}")
    @MethodSource("tableSizes")
    void tablePathCountsLikeTheSlowPathForEveryTableHeight(int n) {
        InteriorSearch slow = new InteriorSearch(n, 0);
        long[] bySymmetry = new long[3];
        for (int rows = 2; rows <= n - 5; rows++) {
            InteriorSearch search = new InteriorSearch(n, rows);
            for (StartConstellations.Ranked ranked : StartConstellations.of(n)) {
                for (int g = 0; g < StartConstellation.SYMMETRY_COUNT; g++) {
                    StartConstellation image = ranked.constellation().transformed(g);
                    slow.load(image);
                    slow.countBySymmetry(bySymmetry);
                    search.load(image);
                    assertEquals(bySymmetry[0] + bySymmetry[1] + bySymmetry[2], search.countCompletions(),
                            rows + " table rows below " + image);
                }
            }
        }
    }

    /** A table that would outgrow its limit is not built, and the search counts every row instead. */
    @ParameterizedTest(name = "n = {0}")
    @MethodSource("tableSizes")
    void tooLargeTableFallsBackToTheDirectSearch(int n) {
        InteriorSearch tiny = new InteriorSearch(n, 3, 1);
        InteriorSearch direct = new InteriorSearch(n, 0);
        for (StartConstellations.Ranked ranked : StartConstellations.of(n)) {
            tiny.load(ranked.constellation());
            direct.load(ranked.constellation());
            assertEquals(direct.countCompletions(), tiny.countCompletions(), ranked.constellation().toString());
        }
    }

    @Test
    void rejectsImpossibleTableHeights() {
        assertThrows(IllegalArgumentException.class, () -> new InteriorSearch(10, 1));
        assertThrows(IllegalArgumentException.class, () -> new InteriorSearch(10, -1));
        assertThrows(IllegalArgumentException.class, () -> new InteriorSearch(BottomTable.MAX_SIZE + 1, 3));
        assertEquals(0, InteriorSearch.defaultTableRows(13));
        assertEquals(6, InteriorSearch.defaultTableRows(16));
        assertEquals(7, InteriorSearch.defaultTableRows(19));
        assertEquals(6, InteriorSearch.defaultTableRows(22));
        assertEquals(0, InteriorSearch.defaultTableRows(23));
    }
}
