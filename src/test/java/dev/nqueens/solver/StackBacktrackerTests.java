package dev.nqueens.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.nqueens.Reference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StackBacktrackerTests {

    @ParameterizedTest(name = "Q({0}) matches the reference")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void countsMatchTheKnownValues(int n) {
        assertThat((long) all(new StackBacktracker(n)).size())
                .isEqualTo(Reference.counts(n).total());
    }

    @Test
    void firstTenAndLastFiveOfEightAreInTheReferenceOrder() {
        List<String> expected =
                Reference.n8().stream().map(Reference.N8::spaced).toList();
        List<String> actual = all(new StackBacktracker(8));
        assertThat(actual).hasSize(92);
        assertThat(actual.subList(0, 10)).containsExactlyElementsOf(expected.subList(0, 10));
        assertThat(actual.subList(87, 92)).containsExactlyElementsOf(expected.subList(87, 92));
        assertThat(actual).containsExactlyElementsOf(expected);
        assertThat(actual.get(0)).isEqualTo("1 5 8 6 3 7 2 4");
    }

    @Test
    void everySolutionIsValidAndTheOrderIsStrictlyLexicographic() {
        StackBacktracker backtracker = new StackBacktracker(10);
        Placement previous = null;
        while (backtracker.next()) {
            Placement current = backtracker.current();
            assertThat(current.isSolution()).isTrue();
            if (previous != null) {
                assertThat(current).isGreaterThan(previous);
            }
            previous = current;
        }
    }

    @Test
    void resumingAfterASolutionContinuesExactly() {
        List<String> expected =
                Reference.n8().stream().map(Reference.N8::spaced).toList();
        for (int k : new int[] {1, 2, 46, 91, 92}) {
            StackBacktracker backtracker = new StackBacktracker(8);
            backtracker.resumeAfter(Placement.parse(expected.get(k - 1)));
            assertThat(all(backtracker)).as("after solution %d", k).containsExactlyElementsOf(expected.subList(k, 92));
        }
    }

    @Test
    void resumingAfterTheLastSolutionOfTwelveYieldsNothingAndAfterTheFirstTheRest() {
        StackBacktracker full = new StackBacktracker(12);
        full.next();
        Placement first = full.current();
        Placement last = first;
        while (full.next()) {
            last = full.current();
        }
        StackBacktracker afterLast = new StackBacktracker(12);
        afterLast.resumeAfter(last);
        assertThat(afterLast.next()).isFalse();
        StackBacktracker afterFirst = new StackBacktracker(12);
        afterFirst.resumeAfter(first);
        assertThat(all(afterFirst)).hasSize(14200 - 1);
    }

    @Test
    void rejectsBadSizesAndResumePoints() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new StackBacktracker(0))
                .withMessage("board size 0 is outside 1..32");
        assertThatIllegalArgumentException().isThrownBy(() -> new StackBacktracker(33));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new StackBacktracker(8).resumeAfter(Placement.parse("1 2 3 4 5 6 7 8")));
    }

    @Test
    void theLargestSupportedBoardStartsWithItsFirstSolution() {
        StackBacktracker backtracker = new StackBacktracker(32);
        assertThat(backtracker.next()).isTrue();
        assertThat(backtracker.current().isSolution()).isTrue();
        assertThat(backtracker.current().size()).isEqualTo(32);
    }

    private static List<String> all(StackBacktracker backtracker) {
        List<String> solutions = new ArrayList<>();
        while (backtracker.next()) {
            solutions.add(backtracker.current().toString());
        }
        return solutions;
    }
}
