package dev.nqueens.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@code ./nqueens sql} prints for the values JDBC returns: numbers in plain decimal form with
 * every digit they have (never an exponent, never rounded), and SQL NULL as psql prints it.
 */
class QueryPrinterTests {

    private static final List<String> LABELS = List.of("label", "value");

    /** Each value JDBC may return, with the text it must be printed as. */
    private static final List<Object[]> NUMBERS = List.of(
            new Object[] {new BigDecimal("10.0"), "10.0"},
            new Object[] {new BigDecimal("1E+1"), "10"},
            new Object[] {new BigDecimal("3.8260869565217391304"), "3.8260869565217391304"},
            new Object[] {new BigDecimal("1E-7"), "0.0000001"},
            new Object[] {new BigDecimal("123456789012345678901234567890"), "123456789012345678901234567890"},
            new Object[] {new BigDecimal("1.23456789012345678901234567890E+29"), "123456789012345678901234567890"},
            new Object[] {10.0, "10"},
            new Object[] {3.8260869565217391304, "3.8260869565217392"},
            new Object[] {1e-7, "0.0000001"},
            new Object[] {-2.5e-10, "-0.00000000025"},
            new Object[] {1.2345678901234568e29, "123456789012345680000000000000"},
            new Object[] {-0.0, "-0"},
            new Object[] {0.1f, "0.1"},
            new Object[] {1e-7f, "0.0000001"},
            new Object[] {9_223_372_036_854_775_807L, "9223372036854775807"},
            new Object[] {92, "92"},
            new Object[] {new java.math.BigInteger("123456789012345678901234567890"), "123456789012345678901234567890"
            });

    @Test
    void numbersArePrintedInPlainDecimalFormWithEveryDigitInTheTable() {
        String table = print(QueryPrinter.Format.TABLE);

        List<String> cells = table.lines()
                .skip(2)
                .limit(NUMBERS.size())
                .map(line -> line.split(" \\| ")[1])
                .toList();
        assertThat(cells)
                .containsExactlyElementsOf(
                        NUMBERS.stream().map(number -> (String) number[1]).toList());
        assertThat(table).doesNotContainPattern("\\d[eE][-+]?\\d");
    }

    @Test
    void numbersArePrintedInPlainDecimalFormWithEveryDigitInCsv() {
        String csv = print(QueryPrinter.Format.CSV);

        List<String> fields = csv.lines()
                .skip(1)
                .limit(NUMBERS.size())
                .map(line -> line.split(",", 2)[1])
                .toList();
        assertThat(fields)
                .containsExactlyElementsOf(
                        NUMBERS.stream().map(number -> (String) number[1]).toList());
        assertThat(csv).doesNotContainPattern("\\d[eE][-+]?\\d");
    }

    @Test
    void numbersArePrintedAsJsonNumbersInPlainDecimalFormWithEveryDigit() {
        String json = print(QueryPrinter.Format.JSON);

        JsonNode rows = JsonMapper.builder().build().readTree(json);
        for (int i = 0; i < NUMBERS.size(); i++) {
            JsonNode value = rows.get(i).get("value");
            assertThat(value.isNumber())
                    .as(json.lines().skip(1 + i).findFirst().orElseThrow())
                    .isTrue();
        }
        List<String> written = json.lines()
                .skip(1)
                .limit(NUMBERS.size())
                .map(line -> line.substring(line.indexOf("\"value\":") + 8, line.lastIndexOf('}')))
                .toList();
        assertThat(written)
                .containsExactlyElementsOf(
                        NUMBERS.stream().map(number -> (String) number[1]).toList());
        assertThat(json).doesNotContainPattern("\\d[eE][-+]?\\d");
    }

    @Test
    void nullIsAnEmptyCellAnEmptyFieldAndJsonNullAsInPsql() {
        assertThat(print(QueryPrinter.Format.TABLE).lines())
                .contains("null   |", "empty  |", "nan    | NaN", "text   | a \"b\"");
        assertThat(print(QueryPrinter.Format.CSV).lines()).contains("null,", "empty,\"\"", "nan,NaN");
        assertThat(print(QueryPrinter.Format.JSON).lines())
                .anyMatch(line -> line.startsWith("{\"label\":\"null\",\"value\":null}"))
                .anyMatch(line -> line.startsWith("{\"label\":\"empty\",\"value\":\"\"}"))
                .anyMatch(line -> line.startsWith("{\"label\":\"nan\",\"value\":\"NaN\"}"));
    }

    @Test
    void aTableEndsWithItsRowCount() {
        assertThat(print(QueryPrinter.Format.TABLE))
                .startsWith("label  | value\n")
                .endsWith("(" + (NUMBERS.size() + 5) + " rows)\n");
    }

    /** The numbers above, then NULL, an empty string, NaN, a boolean and a string, in {@code format}. */
    private static String print(QueryPrinter.Format format) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        QueryPrinter printer = new QueryPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8), format);
        printer.columns(LABELS);
        for (Object[] number : NUMBERS) {
            printer.row(Arrays.asList("number", number[0]));
        }
        printer.row(Arrays.asList("null", null));
        printer.row(Arrays.asList("empty", ""));
        printer.row(Arrays.asList("nan", Double.NaN));
        printer.row(Arrays.asList("flag", true));
        printer.row(Arrays.asList("text", "a \"b\""));
        printer.finish();
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
