package dev.nqueens.symmetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.nqueens.Reference;
import dev.nqueens.board.Symmetry;
import dev.nqueens.solver.Placement;
import dev.nqueens.solver.StackBacktracker;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SymmetryReducerTests {

    @Test
    void eightHasTheTwelveReferenceRepresentativesAndOrbitSizes() {
        SymmetryReducer reducer = new SymmetryReducer(8);
        for (Reference.N8 expected : Reference.n8()) {
            Reduction reduction = reducer.reduce(Placement.parse(expected.spaced()));
            assertThat(reduction.representative()).hasToString(expected.representativeSpaced());
            assertThat(reduction.orbitSize()).isEqualTo(expected.orbitSize());
            assertThat(reduction.isRepresentative(Placement.parse(expected.spaced())))
                    .isEqualTo(expected.fundamental());
        }
        List<String> representatives = Reference.n8().stream()
                .filter(Reference.N8::fundamental)
                .map(Reference.N8::spaced)
                .toList();
        assertThat(representatives).hasSize(12).startsWith("1 5 8 6 3 7 2 4", "1 6 8 3 7 4 2 5");
    }

    @Test
    void eachSolutionOfEightIsItsRepresentativeUnderItsTransformSquareBySquare() {
        SymmetryReducer reducer = new SymmetryReducer(8);
        java.util.Set<Integer> transformsSeen = new java.util.HashSet<>();
        for (Reference.N8 expected : Reference.n8()) {
            Placement solution = Placement.parse(expected.spaced());
            Reduction reduction = reducer.reduce(solution);
            transformsSeen.add(reduction.fromRepresentative());
            int[] image = new int[8];
            Symmetry.image(
                    reduction.fromRepresentative(), reduction.representative().columns(), image);
            assertThat(new Placement(image)).isEqualTo(solution);
            // The same, square by square: each queen of the representative lands on a queen of the solution.
            for (int row = 0; row < 8; row++) {
                int square = Symmetry.square(
                        8,
                        reduction.fromRepresentative(),
                        row,
                        reduction.representative().columns()[row]);
                assertThat(solution.columns()[Symmetry.row(square)]).isEqualTo(Symmetry.column(square));
            }
        }
        assertThat(transformsSeen).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void theOnlySymmetricClassOfEightIsTheHalfTurnOne() {
        Reduction reduction = new SymmetryReducer(8).reduce(Placement.parse("3 5 2 8 1 7 4 6"));
        assertThat(reduction.symmetry()).isEqualTo(SymmetryType.ROT180);
        assertThat(reduction.orbitSize()).isEqualTo(4);
    }

    @ParameterizedTest(name = "U({0}) and the symmetry split match the reference")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void fundamentalCountsAndSplitMatchTheKnownValues(int n) {
        SymmetryReducer reducer = new SymmetryReducer(n);
        StackBacktracker backtracker = new StackBacktracker(n);
        long fundamental = 0;
        long[] byType = new long[SymmetryType.values().length];
        long orbitSum = 0;
        while (backtracker.next()) {
            Placement solution = backtracker.current();
            Reduction reduction = reducer.reduce(solution);
            if (reduction.isRepresentative(solution)) {
                fundamental++;
                byType[reduction.symmetry().ordinal()]++;
                orbitSum += reduction.orbitSize();
            }
        }
        Reference.Counts expected = Reference.counts(n);
        assertThat(fundamental).isEqualTo(expected.fundamental());
        assertThat(byType[SymmetryType.ROT90.ordinal()]).isEqualTo(expected.rot90());
        assertThat(byType[SymmetryType.ROT180.ordinal()]).isEqualTo(expected.rot180());
        assertThat(byType[SymmetryType.NONE.ordinal()]).isEqualTo(expected.asymmetric());
        assertThat(orbitSum).as("orbits cover every solution").isEqualTo(expected.total());
    }

    @Test
    void theSingleQueenIsItsOwnOrbitOfOne() {
        Reduction reduction = new SymmetryReducer(1).reduce(Placement.parse("1"));
        assertThat(reduction.orbitSize()).isEqualTo(1);
        assertThat(reduction.symmetry()).isEqualTo(SymmetryType.ROT90);
    }

    @Test
    void rejectsAPlacementOfAnotherSize() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new SymmetryReducer(8).reduce(Placement.parse("2 4 1 3")));
    }
}
