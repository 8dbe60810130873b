package dev.nqueens.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.TestDatabases;
import dev.nqueens.failure.InvalidInputException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * {@code sql}'s statements run on H2 (a file in PostgreSQL mode, opened as its owner, so that a
 * statement let through could write) and on PostgreSQL: a {@code ;} in a literal, a quoted name
 * or a comment ends no statement and a trailing one is allowed; a second statement is never handed
 * to the database (H2 would run it, PostgreSQL's COMMIT would end the read-only transaction), nor
 * is anything that writes: the table keeps its rows and the database its tables.
 */
class ReadOnlyQueryIntegrationTests {

    /** The text, and the first value of its one row. */
    private static final Map<String, String> ACCEPTED = Map.of(
            "SELECT 'a;b' AS x", "a;b",
            "SELECT n AS \"n;m\" FROM board_summary WHERE n = 2", "2",
            "SELECT COUNT(*) -- the rows; all of them\nFROM board_summary", "3",
            "/* the largest; */ SELECT MAX(n) FROM board_summary", "3",
            "SELECT 'x' || 'y;z' AS x;", "xy;z",
            "SELECT 'it''s' AS x; -- done", "it's",
            "SELECT $$a;b$$ AS x", "a;b");

    private static final List<String> REFUSED = List.of(
            "SELECT 1; DELETE FROM board_summary",
            "SELECT 1; DROP TABLE board_summary",
            "SELECT COUNT(*) FROM board_summary; COMMIT; DELETE FROM board_summary",
            "SELECT 1 ; ; DELETE FROM board_summary",
            "SELECT 'a;' AS x; DELETE FROM board_summary -- ;",
            "SELECT 1 AS \"x\"; TRUNCATE TABLE board_summary",
            "SELECT 1 AS `a;b`; DELETE FROM board_summary",
            "/* ; */ DELETE FROM board_summary",
            "-- why\nDELETE FROM board_summary",
            "EXPLAIN ANALYZE DELETE FROM board_summary",
            "EXPLAIN ANALYZE /* ; */ UPDATE board_summary SET n = 0",
            "SELECT 1 /* not closed ; DELETE FROM board_summary");

    @TempDir
    Path work;

    @Test
    void onH2() throws SQLException {
        String url = TestDatabases.h2Url(work.resolve("nqueens"));
        checkOn(new SingleConnectionDataSource(url, "sa", "", true));
    }

    @Test
    @EnabledIfEnvironmentVariable(
            named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+",
            disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void onPostgres() throws SQLException {
        Map<String, String> database = TestDatabases.postgresEnvironment("nqueens_read_only_it");
        checkOn(new SingleConnectionDataSource(
                database.get("SPRING_DATASOURCE_URL"),
                database.get("SPRING_DATASOURCE_USERNAME"),
                database.get("SPRING_DATASOURCE_PASSWORD"),
                true));
    }

    /**
     * A backslash escapes a quote in PostgreSQL's E'…', and in '…' too where the server's
     * standard_conforming_strings is off: the text is cut with the server's setting, as the driver
     * cuts it when it sends it.
     */
    @Test
    @EnabledIfEnvironmentVariable(
            named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+",
            disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void postgresBackslashesAreReadAsTheServerReadsThem() throws SQLException {
        Map<String, String> database = TestDatabases.postgresEnvironment("nqueens_read_only_it");
        SingleConnectionDataSource postgres = new SingleConnectionDataSource(
                database.get("SPRING_DATASOURCE_URL"),
                database.get("SPRING_DATASOURCE_USERNAME"),
                database.get("SPRING_DATASOURCE_PASSWORD"),
                true);
        try {
            ReadOnlyQuery query = new ReadOnlyQuery(postgres);
            assertThat(firstValue(query, "SELECT E'a\\';b' AS x")).isEqualTo("a';b");
            assertThatThrownBy(() -> firstValue(query, "SELECT 'a\\'; SELECT 1 AS b; SELECT '"))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageStartingWith("refused: one statement only");
            try (Connection connection = postgres.getConnection();
                    Statement sql = connection.createStatement()) {
                sql.execute("SET standard_conforming_strings = off");
            }
            assertThat(firstValue(query, "SELECT 'a\\';b' AS x")).isEqualTo("a';b");
        } finally {
            postgres.destroy();
        }
    }

    private static void checkOn(SingleConnectionDataSource database) throws SQLException {
        try (Connection owner = database.getConnection();
                Statement sql = owner.createStatement()) {
            sql.execute("CREATE TABLE board_summary (n INT PRIMARY KEY)");
            sql.execute("INSERT INTO board_summary VALUES (1), (2), (3)");
        }
        try {
            ReadOnlyQuery query = new ReadOnlyQuery(database);
            ACCEPTED.forEach((text, value) ->
                    assertThat(firstValue(query, text)).as(text).isEqualTo(value));
            List<String> labels = new ArrayList<>();
            query.run("SELECT 1 AS \"a;b\"", sink(labels, new ArrayList<>()));
            assertThat(labels).containsExactly("a;b");
            for (String text : REFUSED) {
                assertThatThrownBy(() -> query.run(text, sink(new ArrayList<>(), new ArrayList<>())))
                        .as(text)
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageMatching("(refused: .*|syntax error in the statement: a comment .*)");
                try (Connection owner = database.getConnection()) {
                    assertThat(TestDatabases.count(owner, "SELECT COUNT(*) FROM board_summary"))
                            .as(text)
                            .isEqualTo(3);
                    assertThat(TestDatabases.count(owner, "SELECT SUM(n) FROM board_summary"))
                            .as(text)
                            .isEqualTo(6);
                }
            }
        } finally {
            database.destroy();
        }
    }

    private static String firstValue(ReadOnlyQuery query, String text) {
        List<Object> values = new ArrayList<>();
        query.run(text, sink(new ArrayList<>(), values));
        return String.valueOf(values.get(0));
    }

    private static ReadOnlyQuery.RowSink sink(List<String> labels, List<Object> values) {
        return new ReadOnlyQuery.RowSink() {
            @Override
            public void columns(List<String> columns) {
                labels.addAll(columns);
            }

            @Override
            public void row(List<Object> row) {
                values.addAll(row);
            }
        };
    }

    @Test
    void aStatementLongerThanItsTimeoutIsStoppedWithNothingHoldingTheDatabase() {
        javax.sql.DataSource h2 = new org.springframework.jdbc.datasource.DriverManagerDataSource(
                "jdbc:h2:mem:timeout;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE", "sa", "");
        assertThatThrownBy(() -> new ReadOnlyQuery(h2, java.time.Duration.ofSeconds(1))
                        .run(
                                "SELECT SUM(x) FROM SYSTEM_RANGE(1, 100000000000) AS t(x)",
                                new QueryPrinter(
                                        new PrintStream(new ByteArrayOutputStream()), QueryPrinter.Format.TABLE)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("nqueens.statement-timeout");
    }

    @Test
    void aSyntaxErrorTheDatabaseFindsIsNamedWithItsPosition() {
        javax.sql.DataSource h2 = new org.springframework.jdbc.datasource.DriverManagerDataSource(
                "jdbc:h2:mem:syntax;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE", "sa", "");
        assertThatThrownBy(() -> new ReadOnlyQuery(h2)
                        .run(
                                "SELECT * FROM WHERE n = 8",
                                new QueryPrinter(
                                        new PrintStream(new ByteArrayOutputStream()), QueryPrinter.Format.TABLE)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("syntax error in the statement at position 15: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotEndWith("SQL statement:"));
        assertThatThrownBy(() -> new ReadOnlyQuery(h2)
                        .run(
                                "SELECT * FROM no_such_table",
                                new QueryPrinter(
                                        new PrintStream(new ByteArrayOutputStream()), QueryPrinter.Format.TABLE)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("the query failed: Table \"no_such_table\" not found");
    }
}
