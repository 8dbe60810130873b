package dev.nqueens.web;

import dev.nqueens.query.PastRun;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.FundamentalRow;
import dev.nqueens.store.SolutionRow;
import java.io.OutputStream;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Writes the API's rows with the column names of the database and the export files, in their
 * order. Counts are written as exact integers (a JavaScript reader loses digits above 2^53).
 */
final class JsonRows {

    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonRows() {
    }

    static JsonGenerator generator(OutputStream out) {
        return FACTORY.createGenerator(ObjectWriteContext.empty(), out);
    }

    static void summary(JsonGenerator json, BoardSummary row) {
        json.writeStartObject();
        json.writeNumberProperty("n", row.n());
        json.writeNumberProperty("total_solutions", row.totalSolutions());
        json.writeNumberProperty("fundamental_solutions", row.fundamentalSolutions());
        json.writeNumberProperty("rot90_classes", row.rot90Classes());
        json.writeNumberProperty("rot180_classes", row.rot180Classes());
        json.writeNumberProperty("asymmetric_classes", row.asymmetricClasses());
        json.writeStringProperty("stored", row.stored().name());
        json.writeStringProperty("computed_at", row.computedAt() == null ? null : row.computedAt().toString());
        json.writeNumberProperty("elapsed_ms", row.elapsedMs());
        json.writeEndObject();
    }

    static void solution(JsonGenerator json, SolutionRow row) {
        json.writeStartObject();
        json.writeNumberProperty("ordinal", row.ordinal());
        json.writeStringProperty("placement", row.placement());
        json.writeNumberProperty("class_ordinal", row.classOrdinal());
        json.writeNumberProperty("orbit_size", row.orbitSize());
        json.writeStringProperty("symmetry", row.symmetry());
        json.writeEndObject();
    }

    static void fundamental(JsonGenerator json, FundamentalRow row) {
        json.writeStartObject();
        json.writeNumberProperty("class_ordinal", row.classOrdinal());
        json.writeStringProperty("placement", row.placement());
        json.writeNumberProperty("orbit_size", row.orbitSize());
        json.writeStringProperty("symmetry", row.symmetry());
        json.writeEndObject();
    }

    static void run(JsonGenerator json, PastRun run) {
        json.writeStartObject();
        json.writeNumberProperty("run", run.run());
        json.writeStringProperty("started", run.started() == null ? null : run.started().toString());
        json.writeStringProperty("ended", run.ended() == null ? null : run.ended().toString());
        json.writeStringProperty("status", run.status());
        json.writeStringProperty("sizes", run.sizes());
        json.writeStringProperty("published", run.published());
        json.writeNumberProperty("rows_written", run.rowsWritten());
        if (run.seconds() == null) {
            json.writeNullProperty("seconds");
        } else {
            json.writeNumberProperty("seconds", run.seconds());
        }
        json.writeEndObject();
    }

    /** A CSV field: quoted when it holds a separator, a quote, a space or a line break. */
    static String csv(Object value) {
        String text = value == null ? "" : value.toString();
        return text.matches(".*[,\" \\r\\n].*") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }
}
