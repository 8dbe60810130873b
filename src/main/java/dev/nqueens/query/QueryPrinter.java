package dev.nqueens.query;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.springframework.util.StreamUtils;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvSchema;

/**
 * Prints rows as an aligned table (held in memory to size the columns, so capped at
 * {@link #TABLE_ROW_LIMIT} rows, and printed only when complete), or streamed as CSV with a
 * header, or as a JSON array of objects.
 *
 * <p>Numbers are printed in plain decimal form, never in exponent notation, with every digit the
 * value has (a NUMERIC {@code 1E+1} as {@code 10}, a double {@code 1.0E-7} as {@code 0.0000001}):
 * nothing is rounded. SQL NULL is printed as psql prints it: an empty cell in the table, an empty
 * field in CSV (an empty string is quoted there, {@code ""}), {@code null} in JSON.
 */
public final class QueryPrinter implements ReadOnlyQuery.RowSink {

    /** Rows an aligned table holds at most; CSV and JSON have no limit. */
    public static final int TABLE_ROW_LIMIT = 10_000;

    /** The output formats. */
    public enum Format {
        TABLE,
        CSV,
        JSON
    }

    private final PrintStream out;
    private final Format format;
    private List<String> labels = List.of();
    private final List<List<String>> table = new ArrayList<>();
    private long rows;
    private tools.jackson.databind.SequenceWriter csv;
    private JsonGenerator json;

    public QueryPrinter(PrintStream out, Format format) {
        this.out = out;
        this.format = format;
    }

    @Override
    public void columns(List<String> columnLabels) {
        labels = List.copyOf(columnLabels);
        // Jackson closes what it writes to; standard output must stay open (finish() flushes it).
        if (format == Format.CSV) {
            CsvSchema.Builder schema = CsvSchema.builder();
            labels.forEach(schema::addColumn);
            csv = new CsvMapper()
                    .writer(schema.build().withHeader())
                    .with(tools.jackson.dataformat.csv.CsvWriteFeature.ALWAYS_QUOTE_EMPTY_STRINGS)
                    .with(tools.jackson.core.StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
                    .writeValues(StreamUtils.nonClosing(out));
        } else if (format == Format.JSON) {
            json = JsonMapper.builder()
                    .build()
                    .writer()
                    .with(new tools.jackson.core.util.MinimalPrettyPrinter() {
                        @Override
                        public void writeArrayValueSeparator(JsonGenerator generator) {
                            generator.writeRaw(",\n");
                        }
                    })
                    .createGenerator(StreamUtils.nonClosing(out));
            json.writeStartArray();
            json.writeRaw('\n');
        }
    }

    @Override
    public void row(List<Object> values) {
        rows++;
        switch (format) {
            case CSV -> csv.write(values.stream().map(QueryPrinter::csvField).toList());
            case JSON -> {
                json.writeStartObject();
                for (int i = 0; i < labels.size(); i++) {
                    Object value = values.get(i);
                    json.writeName(labels.get(i));
                    if (value == null) {
                        json.writeNull();
                    } else if (value instanceof Boolean flag) {
                        json.writeBoolean(flag);
                    } else if (value instanceof Number number && finite(number)) {
                        json.writeNumber(plain(number));
                    } else {
                        json.writeString(value.toString());
                    }
                }
                json.writeEndObject();
            }
            default -> {
                if (table.size() == TABLE_ROW_LIMIT) {
                    throw new dev.nqueens.failure.InvalidInputException("more than " + TABLE_ROW_LIMIT
                            + " rows: add a LIMIT, or use --format csv or --format json");
                }
                table.add(values.stream().map(QueryPrinter::text).toList());
            }
        }
    }

    /** Ends the output: the aligned table with a row count, or the end of the CSV / JSON. */
    public void finish() {
        switch (format) {
            case CSV -> {
                if (csv != null) {
                    csv.close();
                }
            }
            case JSON -> {
                if (json != null) {
                    json.writeEndArray();
                    json.close();
                    out.println();
                }
            }
            default -> {
                if (!labels.isEmpty()) {
                    printTable();
                }
            }
        }
        out.flush();
    }

    private void printTable() {
        int[] widths = new int[labels.size()];
        for (int i = 0; i < labels.size(); i++) {
            widths[i] = labels.get(i).length();
            for (List<String> row : table) {
                widths[i] = Math.max(widths[i], cell(row.get(i)).length());
            }
        }
        printRow(labels, widths);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            rule.append(i == 0 ? "" : "-+-").append("-".repeat(widths[i]));
        }
        out.println(rule);
        table.forEach(row -> printRow(row, widths));
        out.printf("(%d row%s)%n", rows, rows == 1 ? "" : "s");
    }

    private void printRow(List<String> values, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            line.append(i == 0 ? "" : " | ").append(String.format("%-" + widths[i] + "s", cell(values.get(i))));
        }
        out.println(line.toString().stripTrailing());
    }

    /** A value as text: a number in plain decimal form; {@code null} for SQL NULL. */
    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        return value instanceof Number number ? plain(number) : value.toString();
    }

    /**
     * A number's exact value in plain decimal form: a {@code BigDecimal}'s own digits (its scale
     * kept: {@code 10.00} stays so), a double's or a float's digits as {@code toString} gives them
     * (enough to read back as the same value: {@code 3.8260869565217392}, {@code 10}), without an
     * exponent. NaN and the infinities as Java names them, as psql does.
     */
    private static String plain(Number number) {
        if (number instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (number instanceof Double || number instanceof Float) {
            if (!finite(number)) {
                return number.toString();
            }
            double value = number.doubleValue();
            if (value == 0) {
                return 1 / value < 0 ? "-0" : "0";
            }
            BigDecimal shortest = new BigDecimal(number.toString()).stripTrailingZeros();
            return (shortest.scale() < 0 ? shortest.setScale(0) : shortest).toPlainString();
        }
        return number.toString();
    }

    /**
     * A CSV field: a number as a number, so that it is written unquoted (Jackson quotes a long
     * string without looking at it); anything else as text.
     */
    private static Object csvField(Object value) {
        if (!(value instanceof Number number) || !finite(number)) {
            return text(value);
        }
        String plain = plain(number);
        return plain.equals("-0") ? plain : new BigDecimal(plain);
    }

    /** Whether a number has a decimal form: NaN and the infinities have none (JSON writes them as strings). */
    private static boolean finite(Number number) {
        return !(number instanceof Double || number instanceof Float) || Double.isFinite(number.doubleValue());
    }

    /** A cell of the table: SQL NULL is an empty cell, as in psql. */
    private static String cell(String value) {
        return value == null ? "" : value;
    }
}
