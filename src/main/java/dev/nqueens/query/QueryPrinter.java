package dev.nqueens.query;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvSchema;

/**
 * Prints rows as an aligned table (held in memory to size the columns, so capped at
 * {@link #TABLE_ROW_LIMIT} rows, and printed only when complete), or streamed as CSV with a
 * header, or as a JSON array of objects.
 */
public final class QueryPrinter implements ReadOnlyQuery.RowSink {

    /** Rows an aligned table holds at most; CSV and JSON have no limit. */
    public static final int TABLE_ROW_LIMIT = 10_000;

    /** The output formats. */
    public enum Format { TABLE, CSV, JSON }

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
        if (format == Format.CSV) {
            CsvSchema.Builder schema = CsvSchema.builder();
            labels.forEach(schema::addColumn);
            csv = new CsvMapper().writer(schema.build().withHeader()).writeValues(new NonClosing(out));
        } else if (format == Format.JSON) {
            json = JsonMapper.builder().build().writer().with(new tools.jackson.core.util.MinimalPrettyPrinter() {
                @Override
                public void writeArrayValueSeparator(JsonGenerator generator) {
                    generator.writeRaw(",\n");
                }
            }).createGenerator(new NonClosing(out));
            json.writeStartArray();
            json.writeRaw('\n');
        }
    }

    @Override
    public void row(List<Object> values) {
        rows++;
        switch (format) {
            case CSV -> csv.write(values.stream().map(value -> value == null ? null : value.toString()).toList());
            case JSON -> {
                json.writeStartObject();
                for (int i = 0; i < labels.size(); i++) {
                    Object value = values.get(i);
                    json.writeName(labels.get(i));
                    if (value == null) {
                        json.writeNull();
                    } else if (value instanceof Number || value instanceof Boolean) {
                        json.writePOJO(value);
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
                table.add(values.stream().map(value -> value == null ? null : value.toString()).toList());
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
                widths[i] = Math.max(widths[i], text(row.get(i)).length());
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
            line.append(i == 0 ? "" : " | ").append(String.format("%-" + widths[i] + "s", text(values.get(i))));
        }
        out.println(line.toString().stripTrailing());
    }

    private static String text(String value) {
        return value == null ? "NULL" : value;
    }

    /** Jackson closes what it writes to; standard output must stay open. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(java.io.OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws java.io.IOException {
            out.flush();
        }
    }
}
