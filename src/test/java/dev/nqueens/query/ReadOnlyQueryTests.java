package dev.nqueens.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.store.Dialect;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which texts {@code sql} takes, as each database cuts a text into statements (H2's script reader,
 * the PostgreSQL driver's parser), before any database is asked; ReadOnlyQueryIntegrationTests runs
 * them on both databases.
 */
class ReadOnlyQueryTests {

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void acceptsOneReadingStatementWithAnOptionalSemicolon(Dialect dialect) {
        assertThat(ReadOnlyQuery.checked("  SELECT * FROM board_summary; ", dialect))
                .isEqualTo("SELECT * FROM board_summary");
        assertThat(ReadOnlyQuery.checked("with x as (select 1) select * from x", dialect))
                .startsWith("with");
        assertThat(ReadOnlyQuery.checked("(SELECT 1)", dialect)).isEqualTo("(SELECT 1)");
        assertThat(ReadOnlyQuery.checked("EXPLAIN ANALYZE SELECT 1", dialect)).isEqualTo("EXPLAIN ANALYZE SELECT 1");
        assertThat(ReadOnlyQuery.checked("EXPLAIN (ANALYZE, COSTS OFF) WITH x AS (SELECT 1) TABLE x", dialect))
                .startsWith("EXPLAIN");
    }

    /** A ';' in a literal, a quoted name or a comment ends no statement; the comments around it are not run. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SELECT 'a;b' AS x                         | SELECT 'a;b' AS x",
                "SELECT 1 AS \"a;b\"                       | SELECT 1 AS \"a;b\"",
                "SELECT 'it''s;' AS x;                     | SELECT 'it''s;' AS x",
                "SELECT 1 -- a;b                           | SELECT 1",
                "SELECT /* a;b */ 1;                       | SELECT /* a;b */ 1",
                "SELECT 1 /* a /* nested; */ b; */         | SELECT 1",
                "/* why; */ SELECT 1                       | SELECT 1",
                "SELECT 1; -- done;                        | SELECT 1",
                "SELECT 1;;                                | SELECT 1",
                "SELECT $$a;b$$ AS x                       | SELECT $$a;b$$ AS x"
            })
    void aSemicolonInALiteralANameOrACommentEndsNoStatement(String sql, String statement) {
        for (Dialect dialect : Dialect.values()) {
            assertThat(ReadOnlyQuery.checked(sql.replace("\\n", "\n"), dialect))
                    .as(dialect.name())
                    .isEqualTo(statement);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "DELETE FROM board_summary",
                "drop table solution",
                "update x set y = 1",
                "insert into board_summary values (1)",
                "SELECT 1; DROP TABLE board_summary",
                "SELECT 1; DELETE FROM board_summary",
                "SELECT COUNT(*) FROM board_summary; COMMIT; DELETE FROM board_summary",
                "SELECT 1 ; ; DELETE FROM board_summary",
                "SELECT 'a;' AS x; DELETE FROM board_summary -- ;",
                "DELETE FROM board_summary; SELECT 1",
                "/* ; */ DELETE FROM board_summary",
                "-- a comment; then\nDELETE FROM board_summary",
                "(DELETE FROM board_summary)",
                "EXPLAIN ANALYZE DELETE FROM board_summary",
                "explain analyze /* ; */ update board_summary set n = 0",
                "EXPLAIN (ANALYZE, BUFFERS) DELETE FROM board_summary",
                "EXPLAIN PLAN FOR INSERT INTO board_summary VALUES (1)",
                "SELECT 1 AS `a;b`; DELETE FROM board_summary",
                "SELECT 1 /* not closed ; DELETE FROM board_summary",
                "CALL something()",
                " ",
                ";",
                "-- only a comment"
            })
    void refusesWritesAndSeveralStatements(String sql) {
        for (Dialect dialect : Dialect.values()) {
            assertThatThrownBy(() -> ReadOnlyQuery.checked(sql.replace("\\n", "\n"), dialect))
                    .as(dialect.name())
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageMatching(
                            "(refused: .*|no statement given: .*|syntax error in the statement: a comment .*)");
        }
    }

    /** A backslash in E'…' escapes the quote on PostgreSQL; H2 has no such literal and cuts there. */
    @Test
    void eachDatabaseCutsTheTextByItsOwnRules() {
        String escaped = "SELECT E'a\\';b' AS x";
        assertThat(ReadOnlyQuery.checked(escaped, Dialect.POSTGRESQL)).isEqualTo(escaped);
        assertThatThrownBy(() -> ReadOnlyQuery.checked(escaped, Dialect.H2))
                .hasMessageStartingWith("refused: one statement only");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELEC 1", "  frobnicate * FROM solution", "(SELEKT 1)"})
    void aStatementThatStartsWithNoKeywordIsASyntaxErrorAtItsStart(String sql) {
        assertThatThrownBy(() -> ReadOnlyQuery.checked(sql, Dialect.H2))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageMatching(
                        "syntax error in the statement at position \\d+: '\\w+' starts no SQL statement; .*");
        assertThatThrownBy(() -> ReadOnlyQuery.checked("/* a comment */ SELEC 1", Dialect.POSTGRESQL))
                .hasMessageStartingWith("syntax error in the statement at position 17: 'SELEC'");
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
        assertThat(print(QueryPrinter.Format.JSON))
                .isEqualTo("[\n{\"n\":4,\"placement\":\"2 4 1 3\"},\n{\"n\":8,\"placement\":\"1 5 8 6 3 7 2 4\"}]\n");
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
