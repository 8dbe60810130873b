package dev.nqueens.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.nqueens.Reference;
import org.junit.jupiter.api.Test;

class PlacementTests {

    @Test
    void parsesAndPrintsOneBasedColumns() {
        Placement placement = Placement.parse("1 5 8 6 3 7 2 4");
        assertThat(placement.column(0)).isZero();
        assertThat(placement.column(2)).isEqualTo(7);
        assertThat(placement).hasToString("1 5 8 6 3 7 2 4");
        assertThat(placement.isSolution()).isTrue();
    }

    @Test
    void ordersTwoDigitColumnsAsNumbers() {
        assertThat(Placement.parse("9 1 2 3 4 5 6 7 8 10")).isLessThan(Placement.parse("10 1 2 3 4 5 6 7 8 9"));
    }

    @Test
    void rejectsColumnsOffTheBoardAndText() {
        assertThatIllegalArgumentException().isThrownBy(() -> Placement.parse("1 9 2 3 4 5 6 7"));
        assertThatIllegalArgumentException().isThrownBy(() -> Placement.parse("1 x"));
    }

    @Test
    void detectsAttacks() {
        assertThat(Placement.parse("1 2").isSolution()).isFalse();
        assertThat(Placement.parse("2 4 1 3").isSolution()).isTrue();
    }

    @Test
    void findsExactlyThePublishedNumberOfSolutionsAmongAllPermutations() {
        for (int n = 1; n <= 8; n++) {
            assertThat(solutionsAmongPermutations(new int[n], new boolean[n], 0))
                    .as("Q(%d)", n)
                    .isEqualTo(Reference.counts(n).total());
        }
    }

    @Test
    void checksTheWidestBoardsTheBitsHoldAndRefusesWiderOnes() {
        // For n prime to 6, the queen of row r on column 2r mod n attacks no other.
        int[] columns = new int[31];
        for (int row = 0; row < columns.length; row++) {
            columns[row] = 2 * row % columns.length;
        }
        assertThat(new Placement(columns).isSolution()).isTrue();
        int[] swapped = columns.clone();
        swapped[0] = columns[1];
        swapped[1] = columns[0]; // now rows 0 and 2 (0-based columns 2 and 4) share a diagonal
        assertThat(new Placement(swapped).isSolution()).isFalse();
        assertThatIllegalStateException().isThrownBy(() -> new Placement(new int[33]).isSolution());
    }

    /** Every permutation of the columns from {@code row} on, counted where {@code isSolution} holds. */
    private static long solutionsAmongPermutations(int[] columns, boolean[] used, int row) {
        if (row == columns.length) {
            return new Placement(columns).isSolution() ? 1 : 0;
        }
        long solutions = 0;
        for (int column = 0; column < columns.length; column++) {
            if (!used[column]) {
                used[column] = true;
                columns[row] = column;
                solutions += solutionsAmongPermutations(columns, used, row + 1);
                used[column] = false;
            }
        }
        return solutions;
    }
}
