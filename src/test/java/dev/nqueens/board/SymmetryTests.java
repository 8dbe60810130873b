package dev.nqueens.board;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class SymmetryTests {

    /**
     * The first solution of n = 8 (1 5 8 6 3 7 2 4, 0-based 0 4 7 5 2 6 1 3) and its eight images,
     * worked out by hand from the board: turned a quarter clockwise, the queen of row r, column c
     * stands in row c, column 7 - r; and so on for each symmetry.
     */
    @Test
    void theImagesOfTheFirstSolutionOfEight() {
        int[] first = {0, 4, 7, 5, 2, 6, 1, 3};
        int[][] expected = {
            {0, 4, 7, 5, 2, 6, 1, 3}, // identity
            {7, 1, 3, 0, 6, 4, 2, 5}, // quarter turn clockwise
            {4, 6, 1, 5, 2, 0, 3, 7}, // half turn
            {2, 5, 3, 1, 7, 4, 6, 0}, // three-quarter turn
            {7, 3, 0, 2, 5, 1, 6, 4}, // left-right mirror
            {3, 1, 6, 2, 5, 7, 4, 0}, // top-bottom mirror
            {0, 6, 4, 7, 1, 3, 5, 2}, // main diagonal
            {5, 2, 4, 6, 0, 3, 1, 7}, // anti-diagonal
        };
        for (int g = 0; g < Symmetry.COUNT; g++) {
            int[] image = new int[8];
            Symmetry.image(g, first, image);
            assertThat(image).as("symmetry %d", g).containsExactly(expected[g]);
        }
    }

    @Test
    void aPlacementsImageIsWhereEachOfItsQueensGoes() {
        int[] placement = {1, 3, 0, 2, 4};
        for (int g = 0; g < Symmetry.COUNT; g++) {
            int[] image = new int[5];
            Symmetry.image(g, placement, image);
            for (int row = 0; row < 5; row++) {
                int square = Symmetry.square(5, g, row, placement[row]);
                assertThat(image[Symmetry.row(square)])
                        .as("symmetry %d, row %d", g, row)
                        .isEqualTo(Symmetry.column(square));
            }
        }
    }

    @Test
    void eachSymmetryIsUndoneByItsInverse() {
        int[] placement = {1, 3, 0, 2};
        for (int g = 0; g < Symmetry.COUNT; g++) {
            int[] image = new int[4];
            int[] back = new int[4];
            Symmetry.image(g, placement, image);
            Symmetry.image(Symmetry.inverse(g), image, back);
            assertThat(back).as("symmetry %d", g).containsExactly(placement);
        }
        assertThat(Symmetry.inverse(Symmetry.QUARTER_TURN)).isEqualTo(Symmetry.THREE_QUARTER_TURN);
        assertThat(Symmetry.inverse(6)).isEqualTo(6);
    }

    @Test
    void squaresArePackedRowThenColumn() {
        int square = Symmetry.square(16, Symmetry.QUARTER_TURN, 3, 10);
        assertThat(Symmetry.row(square)).isEqualTo(10);
        assertThat(Symmetry.column(square)).isEqualTo(12);
    }

    @Test
    void onlyEightSymmetries() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Symmetry.square(8, 8, 0, 0))
                .withMessage("no symmetry 8; they are numbered 0..7");
        assertThatIllegalArgumentException().isThrownBy(() -> Symmetry.inverse(-1));
    }
}
