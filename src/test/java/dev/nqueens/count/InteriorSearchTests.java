package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class InteriorSearchTests {

    static IntStream sizes() {
        return IntStream.rangeClosed(4, 12);
    }

    /**
     * The fast path (explicit stack, last two rows resolved arithmetically) and the slow path
     * (every queen placed and each solution inspected) must find the same completions below every
     * canonical constellation, in each of its 8 orientations, whatever the shape of its free rows.
     */
    @ParameterizedTest(name = "n = {0}")
    @MethodSource("sizes")
    void fastPathCountsLikeTheSlowPathInEveryOrientation(int n) {
        InteriorSearch search = new InteriorSearch(n);
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
}
