package dev.nqueens.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BoardSizesTests {

    @Test
    void parsesListsAndRanges() {
        assertThat(BoardSizes.parse("4,8,10-12").sizes()).containsExactly(4, 8, 10, 11, 12);
        assertThat(BoardSizes.parse("1-12").sizes()).hasSize(12).startsWith(1).endsWith(12);
        assertThat(BoardSizes.parse(" 8 , 4 ,8").sizes()).containsExactly(4, 8);
        assertThat(BoardSizes.parse("25").sizes()).containsExactly(25);
    }

    @Test
    void printsCollapsedRanges() {
        assertThat(BoardSizes.parse("1,2,3,4,8,10-12")).hasToString("1-4,8,10-12");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0      | invalid size list '0': 0 is out of range; sizes are whole numbers 1..25",
                "-3     | invalid size list '-3': -3 is out of range",
                "abc    | invalid size list 'abc': 'abc' is not a size",
                "12-4   | invalid size list '12-4': range 12-4 is descending",
                "33     | invalid size list '33': 33 is out of range",
                "4,,8   | invalid size list '4,,8': '' is not a size",
                "1-40   | invalid size list '1-40': 40 is out of range",
                "26     | invalid size list '26': n=26 is beyond what the counting engine counts; sizes are whole numbers 1..25",
                "29     | invalid size list '29': n=29 is beyond what the counting engine counts",
                "24-32  | invalid size list '24-32': n=32 is beyond what the counting engine counts"
            })
    void rejectsBadListsNamingTheProblem(String text, String message) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BoardSizes.parse(text))
                .withMessageStartingWith(message);
    }

    @Test
    void theLargestSizeIsTheLargestTheCountingEngineCounts() {
        assertThat(BoardSizes.MAX).isEqualTo(dev.nqueens.count.CountingEngine.MAX_COUNTED_SIZE);
    }

    @Test
    void rejectsAnEmptyList() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BoardSizes.parse(" "))
                .withMessageStartingWith("empty size list");
    }
}
