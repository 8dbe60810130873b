package dev.nqueens.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.solver.Placement;
import dev.nqueens.solver.StackBacktracker;
import dev.nqueens.store.GenerationLoader;
import dev.nqueens.symmetry.Reduction;
import dev.nqueens.symmetry.SymmetryReducer;
import dev.nqueens.verify.VerificationReport.Check;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The streaming checks of one size, fed rows by hand: the correct rows of n = 10 and damaged ones. */
class SizeScanTests {

    @Test
    void theSolutionsOfTenInNumericOrderPass() {
        SizeScan scan = scan(10, solutions(10));

        assertThat(scan.checks(true))
                .containsExactly(
                        new Check("n=10 placements", true, "724 solutions and 92 classes valid"),
                        new Check(
                                "n=10 order",
                                true,
                                "724 solutions and 92 classes numbered densely in lexicographic order"),
                        new Check(
                                "n=10 classes",
                                true,
                                "92 classes: representatives, orbit sizes, symmetries and members right"));
    }

    @Test
    void columnTenSortsAfterNineNotBeforeTwo() {
        List<Placement> asText = new ArrayList<>(solutions(10));
        asText.sort(Comparator.comparing(Placement::toString));

        Check order = scan(10, asText).checks(true).get(1);

        assertThat(order.passed()).isFalse();
        assertThat(order.detail()).startsWith("n=10 ordinal ").contains("' does not sort after ordinal ");
    }

    @Test
    void textsThatAreNotSolutionsOfTheSizeAreNamedFirstAndCounted() {
        SizeScan scan = new SizeScan(8);
        scan.withSolutions(0);
        scan.acceptSolution(1, "1 5 8 6 3 7 2", 1, 0, 8);
        scan.acceptSolution(2, "1 5 8 6 3 7 2 9", 1, 0, 8);
        scan.acceptSolution(3, "1 5  8 6 3 7 2 4", 1, 0, 8);
        scan.acceptSolution(4, "one", 1, 0, 8);

        assertThat(scan.checks(true).get(0))
                .isEqualTo(new Check(
                        "n=8 placements", false, "n=8 ordinal 1: '1 5 8 6 3 7 2' is not a solution (and 3 more)"));
    }

    @Test
    void aSolutionWrittenOtherwiseThanInTheProductsFormIsNotValid() {
        SizeScan scan = new SizeScan(8);
        scan.withSolutions(0);
        String[] texts = {
            " 1 5 8 6 3 7 2 4",
            "1 5 8 6 3 7 2 4 ",
            "01 5 8 6 3 7 2 4",
            "+1 5 8 6 3 7 2 4",
            "1\t5 8 6 3 7 2 4",
            "1 5 8 6 3 7 2 4 4",
            "0 5 8 6 3 7 2 4",
            "",
            null
        };
        for (int i = 0; i < texts.length; i++) {
            scan.acceptSolution(i + 1, texts[i], 1, 0, 8);
        }
        scan.acceptSolution(texts.length + 1, "1 5 8 6 3 7 2 4", 1, 0, 8);

        assertThat(scan.checks(true).get(0))
                .isEqualTo(new Check(
                        "n=8 placements", false, "n=8 ordinal 1: ' 1 5 8 6 3 7 2 4' is not a solution (and 8 more)"));
    }

    @Test
    void aRepresentativeThatIsNotTheSmallestImageIsNamed() {
        SizeScan scan = new SizeScan(8);
        scan.withSolutions(0);
        scan.acceptClass(1, "1 7 4 6 8 2 5 3", 8, "NONE", "agdfhbec");
        scan.acceptSolution(1, "1 6 8 3 7 4 2 5", 1, 0, 8);

        assertThat(scan.checks(true).get(2))
                .isEqualTo(new Check(
                        "n=8 classes",
                        false,
                        "n=8 class 1: '1 7 4 6 8 2 5 3' is not the smallest of its images, '1 6 8 3 7 4 2 5' is"
                                + " (and 2 more)"));
    }

    @Test
    void aMissingFirstClassIsAGap() {
        SizeScan scan = new SizeScan(8);
        scan.acceptClass(2, "1 6 8 3 7 4 2 5", 8, "NONE", "afhcgdbe");

        assertThat(scan.checks(false).get(1))
                .isEqualTo(new Check("n=8 order", false, "n=8: the first class is 2, not 1"));
    }

    @Test
    void aSolutionFiledUnderAnotherClassIsNamed() {
        List<Placement> solutions = solutions(8);
        SizeScan scan = scan(8, solutions, (ordinal, wanted) -> ordinal == 5 ? wanted % 12 + 1 : wanted);

        assertThat(scan.checks(true).get(2))
                .isEqualTo(new Check(
                        "n=8 classes",
                        false,
                        "n=8 ordinal 5: class 4, but its representative '2 4 6 8 3 1 7 5' is class 3"));
    }

    @Test
    void cellsThatAreNotTheQueensOfTheRepresentativeAreNamed() {
        SizeScan scan = new SizeScan(8);
        scan.acceptClass(1, "1 5 8 6 3 7 2 4", 8, "NONE", "aehfcgdb");

        assertThat(scan.checks(false).get(2))
                .isEqualTo(new Check(
                        "n=8 classes", false, "n=8 class 1: cells 'aehfcgdb' are not the queens of '1 5 8 6 3 7 2 4'"));
    }

    @Test
    void aMissingMemberLeavesTheOrbitsUncovered() {
        List<Placement> solutions = new ArrayList<>(solutions(8));
        solutions.remove(91);

        Check classes = scan(8, solutions).checks(true).get(2);

        assertThat(classes)
                .isEqualTo(new Check(
                        "n=8 classes", false, "n=8: 91 solutions stored, but the classes' orbits add up to 92"));
    }

    /** Feeds the classes (in order of their representatives) and then the solutions as numbered. */
    private static SizeScan scan(int n, List<Placement> solutions) {
        return scan(n, solutions, (ordinal, wanted) -> wanted);
    }

    /** The class a solution is stored under, given its ordinal and its right class. */
    private interface Filing {
        long classOf(long ordinal, long wanted);
    }

    private static SizeScan scan(int n, List<Placement> solutions, Filing filing) {
        SymmetryReducer reducer = new SymmetryReducer(n);
        TreeMap<Placement, Reduction> classes = new TreeMap<>();
        for (Placement solution : solutions) {
            Reduction reduction = reducer.reduce(solution);
            classes.put(reduction.representative(), reduction);
        }
        SizeScan scan = new SizeScan(n);
        scan.withSolutions(classes.size());
        List<Placement> representatives = new ArrayList<>(classes.keySet());
        long classOrdinal = 0;
        for (Reduction reduction : classes.values()) {
            String text = reduction.representative().toString();
            scan.acceptClass(
                    ++classOrdinal,
                    text,
                    reduction.orbitSize(),
                    reduction.symmetry().name(),
                    GenerationLoader.cells(text));
        }
        long ordinal = 0;
        for (Placement solution : solutions) {
            Reduction reduction = reducer.reduce(solution);
            ordinal++;
            scan.acceptSolution(
                    ordinal,
                    solution.toString(),
                    filing.classOf(ordinal, representatives.indexOf(reduction.representative()) + 1),
                    reduction.fromRepresentative(),
                    reduction.orbitSize());
        }
        return scan;
    }

    private static List<Placement> solutions(int n) {
        List<Placement> solutions = new ArrayList<>();
        StackBacktracker backtracker = new StackBacktracker(n);
        while (backtracker.next()) {
            solutions.add(backtracker.current());
        }
        return solutions;
    }
}
