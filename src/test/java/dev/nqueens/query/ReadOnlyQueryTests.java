package dev.nqueens.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ReadOnlyQueryTests {

    @Test
    void acceptsOneReadingStatementWithAnOptionalSemicolon() {
        assertThat(ReadOnlyQuery.checked("  SELECT * FROM board_summary; ")).isEqualTo("SELECT * FROM board_summary");
        assertThat(ReadOnlyQuery.checked("with x as (select 1) select * from x")).startsWith("with");
        assertThat(ReadOnlyQuery.checked("(SELECT 1)")).isEqualTo("(SELECT 1)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"DELETE FROM board_summary", "drop table solution", "update x set y = 1",
        "insert into board_summary values (1)", "SELECT 1; DROP TABLE board_summary", "CALL something()", " "})
    void refusesWritesAndSeveralStatements(String sql) {
        assertThatIllegalArgumentException().isThrownBy(() -> ReadOnlyQuery.checked(sql))
                .withMessageMatching("(refused: .*|no statement given: .*)");
    }

    @Test
    void printsAnAlignedTableCsvAndJson() {
        assertThat(print(QueryPrinter.Format.TABLE)).isEqualTo("""
                n | placement
                --+--------------
                4 | 2 4 1 3
                8 | 1 5 8 6 3 7 2 4
                (2 rows)
                """.replace("--+--------------", "--+----------------"));
        assertThat(print(QueryPrinter.Format.CSV)).isEqualTo("n,placement\n4,\"2 4 1 3\"\n8,\"1 5 8 6 3 7 2 4\"\n");
        assertThat(print(QueryPrinter.Format.JSON)).isEqualTo(
                "[\n{\"n\":4,\"placement\":\"2 4 1 3\"},\n{\"n\":8,\"placement\":\"1 5 8 6 3 7 2 4\"}]\n");
    }

    private static String print(QueryPrinter.Format format) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (QueryPrinter printer = new QueryPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8), format)) {
            printer.columns(List.of("n", "placement"));
            printer.row(Arrays.asList(4, "2 4 1 3"));
            printer.row(Arrays.asList(8, "1 5 8 6 3 7 2 4"));
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
