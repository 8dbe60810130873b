package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * A table that would outgrow its limit is not built: the search takes the rows from a table of
     * fewer rows, or counts every row when even two rows are too many.
     */
    @ParameterizedTest(name = "n = {0}")
    @MethodSource("tableSizes")
    void tooLargeTableFallsBackToFewerRows(int n) {
        InteriorSearch direct = new InteriorSearch(n, 0);
        for (int limit : new int[] {1, 30, 300}) {
            InteriorSearch limited = new InteriorSearch(n, Math.max(2, n - 5), limit);
            for (StartConstellations.Ranked ranked : StartConstellations.of(n)) {
                limited.load(ranked.constellation());
                direct.load(ranked.constellation());
                assertEquals(direct.countCompletions(), limited.countCompletions(),
                        "tables of at most " + limit + " entries below " + ranked.constellation());
            }
        }
    }

    /**
     * The symmetric constellations' completions that a rotation leaves unchanged, counted on the
     * side, match the slow path's inspection of every solution, in every orientation (each image
     * of a constellation fixed by a rotation is fixed by it too).
     */
    @ParameterizedTest(name = "n = {0}")
    @MethodSource("symmetricSizes")
    void rotationFixedCompletionsMatchTheSlowPath(int n) {
        InteriorSearch search = new InteriorSearch(n, 0);
        RotationFixedCompletions fixed = new RotationFixedCompletions(n);
        long[] bySymmetry = new long[3];
        int symmetric = 0;
        for (StartConstellations.Ranked ranked : StartConstellations.of(n)) {
            if (ranked.constellation().symmetries() == 1) {
                continue;
            }
            symmetric++;
            for (int g = 0; g < StartConstellation.SYMMETRY_COUNT; g++) {
                StartConstellation image = ranked.constellation().transformed(g);
                search.load(image);
                search.countBySymmetry(bySymmetry);
                long quarter = image.symmetries() == 4 ? fixed.count(image, RotationFixedCompletions.QUARTER_TURN) : 0;
                long half = fixed.count(image, RotationFixedCompletions.HALF_TURN);
                assertEquals(bySymmetry[2], quarter, "quarter turn below " + image);
                assertEquals(bySymmetry[1] + bySymmetry[2], half, "half turn below " + image);
            }
        }
        assertTrue(symmetric > 0, "no symmetric constellation of size " + n);
    }

    static IntStream symmetricSizes() {
        return IntStream.rangeClosed(4, 14);
    }

    @Test
    void rejectsImpossibleTableHeightsAndRotations() {
        assertThrows(IllegalArgumentException.class, () -> new InteriorSearch(10, 1));
        assertThrows(IllegalArgumentException.class, () -> new InteriorSearch(10, -1));
        assertThrows(IllegalArgumentException.class, () -> new InteriorSearch(BottomTable.MAX_SIZE + 1, 3));
        StartConstellation asymmetric = StartConstellations.of(10).stream().map(StartConstellations.Ranked::constellation)
                .filter(c -> c.symmetries() == 1).findFirst().orElseThrow();
        RotationFixedCompletions fixed = new RotationFixedCompletions(10);
        assertThrows(IllegalArgumentException.class, () -> fixed.count(asymmetric, RotationFixedCompletions.HALF_TURN));
        assertThrows(IllegalArgumentException.class, () -> fixed.count(asymmetric, 4));
    }
}
