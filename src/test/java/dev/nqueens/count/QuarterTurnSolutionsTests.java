package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nqueens.Reference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QuarterTurnSolutionsTests {

    /** A class unchanged by the quarter turn has 2 solutions, each unchanged: twice the published classes. */
    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {4, 5, 6, 8, 9, 12, 13, 14, 16, 17})
    void findsEverySolutionTheQuarterTurnLeavesUnchanged(int n) {
        long found = QuarterTurnSolutions.byPair(n).values().stream()
                .mapToLong(Long::longValue)
                .sum();
        assertEquals(2 * Reference.counts(n).rot90(), found);
    }
}
