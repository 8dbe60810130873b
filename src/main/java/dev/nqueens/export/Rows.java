package dev.nqueens.export;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.nqueens.query.PastRun;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.RepresentativeRow;
import dev.nqueens.store.SolutionRow;
import java.io.OutputStream;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.SequenceWriter;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvSchema;

/**
 * The one way rows become JSON and CSV, for the export files and the web API alike: the row
 * records of {@code store} (and the runs of {@code query}), their fields in snake case — the
 * database's column names — in the order given here, times as ISO-8601 text, counts as exact
 * integers. Rows are written one at a time, so a response or a file of any size is streamed.
 */
public final class Rows {

    @JsonPropertyOrder({
        "n",
        "total_solutions",
        "fundamental_solutions",
        "rot90_classes",
        "rot180_classes",
        "asymmetric_classes",
        "stored",
        "computed_at",
        "elapsed_ms"
    })
    private interface SummaryOrder {}

    @JsonPropertyOrder({"ordinal", "placement", "class_ordinal", "orbit_size", "symmetry"})
    private interface SolutionOrder {}

    @JsonPropertyOrder({"class_ordinal", "placement", "orbit_size", "symmetry"})
    private interface RepresentativeOrder {}

    @JsonPropertyOrder({"run", "started", "ended", "status", "sizes", "published", "rows_written", "seconds", "notes"})
    private interface RunOrder {}

    /** JSON of the rows; closes no stream it writes to. */
    public static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.CLOSE_CLOSEABLE)
            .addMixIn(BoardSummary.class, SummaryOrder.class)
            .addMixIn(SolutionRow.class, SolutionOrder.class)
            .addMixIn(RepresentativeRow.class, RepresentativeOrder.class)
            .addMixIn(PastRun.class, RunOrder.class)
            .build();

    private static final CsvMapper CSV = CsvMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
            .addMixIn(BoardSummary.class, SummaryOrder.class)
            .addMixIn(SolutionRow.class, SolutionOrder.class)
            .addMixIn(RepresentativeRow.class, RepresentativeOrder.class)
            .build();

    private Rows() {}

    /** A CSV writer of {@code type}'s rows to {@code out}, its header first; closing it closes {@code out}. */
    public static SequenceWriter csv(Class<?> type, OutputStream out) {
        CsvSchema schema = CSV.schemaFor(type).withHeader();
        return CSV.writer(schema).writeValues(out);
    }
}
