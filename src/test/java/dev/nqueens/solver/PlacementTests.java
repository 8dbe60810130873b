package dev.nqueens.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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
}
