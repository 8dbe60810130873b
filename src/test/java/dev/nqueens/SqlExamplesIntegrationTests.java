package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every {@code sql} block and {@code ./nqueens sql} command line of docs/sql.md, run as the page says, through {@code ./nqueens sql} (in
 * this JVM), on a fresh database holding sizes 1-10 (1-8 with every solution, 9 as class
 * representatives, 10 counted) after a rerun with nothing to compute: in the table, CSV and JSON
 * each answers with rows and no number in exponent notation, and with the published record's
 * facts. A new example on the page is tested without a change here.
 */
@ResourceLock(TestResources.TEST_JVM)
class SqlExamplesIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final tools.jackson.dataformat.csv.CsvMapper CSV = new tools.jackson.dataformat.csv.CsvMapper();
    /** A number written with an exponent: {@code 1E+1}, {@code 1.0E-7}. */
    private static final Pattern EXPONENT = Pattern.compile("(?<![\\w.])-?\\d+(\\.\\d+)?[eE][-+]?\\d+(?![\\w.])");

    @TempDir
    Path work;

    @Test
    void everyExampleAnswersAsDocumentedOnH2() throws Exception {
        checkEveryExample(Map.of());
    }

    @Test
    void everyExampleAnswersAsDocumentedOnPostgres() throws Exception {
        assumeTrue(TestDatabases.postgresAvailable(), TestDatabases.POSTGRES_SKIPPED);
        checkEveryExample(TestDatabases.postgresEnvironment("nqueens_sql_examples"));
    }

    private void checkEveryExample(Map<String, String> database) throws Exception {
        String[] run = {"run", "--sizes", "1-10", "--store-all-up-to", "8", "--store-fundamental-up-to", "9"};
        NqueensProcess.Result first = InProcess.run(work, database, run);
        assertThat(first.exitCode()).as(first.err()).isZero();
        NqueensProcess.Result rerun = InProcess.run(work, database, run);
        assertThat(rerun.exitCode()).as(rerun.err()).isZero();
        assertThat(rerun.out()).as("a rerun with nothing to compute").contains("already stored");

        List<String> examples = documentedExamples();
        assertThat(examples).hasSizeGreaterThanOrEqualTo(7);
        for (String example : examples) {
            List<Map<String, String>> rows = answer(database, example);
            assertThat(rows).as(example).isNotEmpty();
            assertPlainOverJdbc(database, example);
            checkFacts(example, rows);
        }
    }

    /**
     * The rows of {@code example} as CSV gives them (each value's text as printed; NULL is an empty
     * field), after checking that the table, CSV and JSON each print them, without an exponent.
     */
    private List<Map<String, String>> answer(Map<String, String> database, String example) {
        NqueensProcess.Result table = InProcess.run(work, database, "sql", example);
        NqueensProcess.Result csv = InProcess.run(work, database, "sql", example, "--format", "csv");
        NqueensProcess.Result json = InProcess.run(work, database, "sql", example, "--format", "json");
        for (NqueensProcess.Result result : List.of(table, csv, json)) {
            assertThat(result.exitCode()).as(example + "\n" + result.err()).isZero();
            assertThat(result.err()).isEmpty();
            assertThat(result.out()).as(example).doesNotContainPattern(EXPONENT);
        }
        JsonNode array = JSON.readTree(json.out());
        List<Map<String, String>> rows = new ArrayList<>();
        try (tools.jackson.databind.MappingIterator<Map<String, String>> fields = CSV.readerForMapOf(String.class)
                .with(tools.jackson.dataformat.csv.CsvSchema.emptySchema().withHeader())
                .readValues(csv.out())) {
            fields.forEachRemaining(rows::add);
        }
        assertThat(array).as(example).hasSize(rows.size());
        assertThat(table.out())
                .as(example)
                .endsWith("(" + rows.size() + " row" + (rows.size() == 1 ? "" : "s") + ")\n");
        return rows;
    }

    /**
     * What psql and other clients show: the text of each value as the database's driver gives it
     * (H2's PostgreSQL server sends exactly that), read with the owner's login.
     */
    private void assertPlainOverJdbc(Map<String, String> database, String example) throws SQLException {
        try (Connection connection = TestDatabases.open(database, work);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(example.replaceFirst(";\\s*$", ""))) {
            while (rows.next()) {
                for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
                    String text = rows.getString(i);
                    assertThat(text == null ? "" : text).as(example).doesNotContainPattern(EXPONENT);
                }
            }
        }
    }

    /** The facts each example shows, from the published values and the reference solutions of n = 8. */
    private static void checkFacts(String example, List<Map<String, String>> rows) {
        if (example.contains("symmetric_percent")) {
            assertThat(rows).hasSize(10);
            for (Map<String, String> row : rows) {
                Reference.Counts known = Reference.counts(Integer.parseInt(row.get("n")));
                assertThat(List.of(
                                row.get("total_solutions"),
                                row.get("fundamental_solutions"),
                                row.get("rot90_classes"),
                                row.get("rot180_classes"),
                                row.get("asymmetric_classes")))
                        .containsExactly(
                                known.total() + "",
                                known.fundamental() + "",
                                known.rot90() + "",
                                known.rot180() + "",
                                known.asymmetric() + "");
                String share = known.total() == 0
                        ? ""
                        : new java.math.BigDecimal(100 * (known.total() - 8 * known.asymmetric()))
                                .divide(java.math.BigDecimal.valueOf(known.total()), 2, java.math.RoundingMode.HALF_UP)
                                .toPlainString();
                assertThat(row.get("symmetric_percent")).as("n = " + known.n()).isEqualTo(share);
            }
            assertThat(rows.get(7).get("symmetric_percent")).isEqualTo("4.35");
        } else if (example.contains("class_ordinal = 3")) {
            String third = Reference.n8().stream()
                    .map(Reference.N8::representativeSpaced)
                    .distinct()
                    .sorted()
                    .skip(2)
                    .findFirst()
                    .orElseThrow();
            assertThat(rows)
                    .extracting(row -> row.get("placement"))
                    .containsExactlyElementsOf(Reference.n8().stream()
                            .filter(solution -> solution.representativeSpaced().equals(third))
                            .map(Reference.N8::spaced)
                            .toList());
            assertThat(rows).hasSize(8);
        } else if (example.contains("solution_cell")) {
            assertThat(rows)
                    .extracting(row -> row.get("placement"))
                    .containsExactlyElementsOf(Reference.n8().stream()
                            .map(Reference.N8::spaced)
                            .filter(placement -> placement.split(" ")[3].equals("2"))
                            .toList());
        } else if (example.contains("symmetry <> 'NONE'")) {
            assertThat(rows).allSatisfy(row -> assertThat(row.get("symmetry")).isIn("ROT90", "ROT180"));
            long symmetric = 0;
            for (int n = 1; n <= 9; n++) {
                symmetric += Reference.counts(n).rot90() + Reference.counts(n).rot180();
            }
            assertThat(rows).hasSize((int) symmetric);
        } else if (example.contains("growth")) {
            // Q(n) / Q(n-1) after each size with solutions (Q(2) = Q(3) = 0): 92 / 40 = 2.30 for n = 8.
            assertThat(rows)
                    .extracting(row -> row.get("n") + ": " + row.get("growth"))
                    .containsExactly("2: 0.00", "5: 5.00", "6: 0.40", "7: 10.00", "8: 2.30", "9: 3.83", "10: 2.06");
        } else if (example.contains("batch_step_execution")) {
            // The last run that did work is the first: its partitions, not the rerun's empty steps.
            assertThat(rows)
                    .extracting(row -> row.get("step_name"))
                    .anyMatch(step -> step.startsWith("solveSize:"))
                    .anyMatch(step -> step.startsWith("countPart:"));
            assertThat(rows).allSatisfy(row -> assertThat(row.get("status")).isEqualTo("COMPLETED"));
        }
    }

    /** A command line of a shell block: {@code ./nqueens sql "STATEMENT" …}. */
    private static final Pattern COMMAND_LINE = Pattern.compile("^\\./nqueens sql \"([^\"]+)\"");

    /**
     * The {@code sql} blocks of docs/sql.md, each as a user passes it to {@code ./nqueens sql "…"}:
     * the statement without its comment lines; and the statements of its shell blocks' command lines.
     */
    static List<String> documentedExamples() throws IOException {
        List<String> blocks = new ArrayList<>();
        StringBuilder current = null;
        for (String line : Files.readAllLines(Path.of("docs", "sql.md"))) {
            Matcher command = COMMAND_LINE.matcher(line);
            if (command.find()) {
                blocks.add(command.group(1));
            } else if (line.equals("```sql")) {
                current = new StringBuilder();
            } else if (line.equals("```") && current != null) {
                blocks.add(current.toString().strip());
                current = null;
            } else if (current != null && !line.strip().startsWith("--")) {
                current.append(line).append('\n');
            }
        }
        return blocks;
    }
}
