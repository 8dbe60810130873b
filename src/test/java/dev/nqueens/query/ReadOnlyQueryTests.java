package dev.nqueens.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.failure.InvalidInputException;

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
        assertThatThrownBy(() -> ReadOnlyQuery.checked(sql)).isInstanceOf(InvalidInputException.class)
                .hasMessageMatching("(refused: .*|no statement given: .*)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELEC 1", "  frobnicate * FROM solution", "(SELEKT 1)"})
    void aStatementThatStartsWithNoKeywordIsASyntaxErrorAtItsStart(String sql) {
        assertThatThrownBy(() -> ReadOnlyQuery.checked(sql)).isInstanceOf(InvalidInputException.class)
                .hasMessageMatching("syntax error in the statement at position \\d+: '\\w+' starts no SQL statement; .*");
    }

    @Test
    void aSyntaxErrorTheDatabaseFindsIsNamedWithItsPosition() {
        javax.sql.DataSource h2 = new org.springframework.jdbc.datasource.DriverManagerDataSource(
                "jdbc:h2:mem:syntax;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE", "sa", "");
        assertThatThrownBy(() -> new ReadOnlyQuery(h2).run("SELECT * FROM WHERE n = 8", new QueryPrinter(
                new PrintStream(new ByteArrayOutputStream()), QueryPrinter.Format.TABLE)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("syntax error in the statement at position 15: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotEndWith("SQL statement:"));
        assertThatThrownBy(() -> new ReadOnlyQuery(h2).run("SELECT * FROM no_such_table", new QueryPrinter(
                new PrintStream(new ByteArrayOutputStream()), QueryPrinter.Format.TABLE)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("the query failed: Table \"no_such_table\" not found");
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
        QueryPrinter printer = new QueryPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8), format);
        printer.columns(List.of("n", "placement"));
        printer.row(Arrays.asList(4, "2 4 1 3"));
        printer.row(Arrays.asList(8, "1 5 8 6 3 7 2 4"));
        printer.finish();
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
