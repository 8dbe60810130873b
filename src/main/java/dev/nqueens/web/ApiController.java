package dev.nqueens.web;

import dev.nqueens.query.PastRun;
import dev.nqueens.query.RunHistory;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.StoredLevel;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JsonGenerator;

/**
 * The JSON API for scripts: the published sizes, one size, a page of its solutions or classes
 * (also as CSV), the last runs. Pages are ranges of ordinals, streamed from the database to the
 * response. Parameters are checked before the first byte is written, so a bad one gets a problem.
 */
@RestController
@Profile(Serve.PROFILE)
class ApiController {

    private static final String JSON = "application/json";
    private static final String CSV = "text/csv;charset=UTF-8";
    private static final int MAX_RUNS = 1000;

    private final SolutionStore store;
    private final RunHistory history;

    ApiController(SolutionStore store, RunHistory history) {
        this.store = store;
        this.history = history;
    }

    @GetMapping("/api/sizes")
    void sizes(HttpServletResponse response) throws IOException {
        List<BoardSummary> summaries = store.summaries();
        response.setContentType(JSON);
        try (JsonGenerator json = JsonRows.generator(response.getOutputStream())) {
            json.writeStartObject();
            json.writeArrayPropertyStart("sizes");
            summaries.forEach(row -> JsonRows.summary(json, row));
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    @GetMapping("/api/sizes/{n}")
    void size(@PathVariable int n, HttpServletResponse response) throws IOException {
        BoardSummary summary = Requests.published(store, n);
        response.setContentType(JSON);
        try (JsonGenerator json = JsonRows.generator(response.getOutputStream())) {
            JsonRows.summary(json, summary);
        }
    }

    @GetMapping("/api/sizes/{n}/solutions")
    void solutions(@PathVariable int n, @RequestParam(defaultValue = "0") long offset,
            @RequestParam(defaultValue = "" + Requests.DEFAULT_LIMIT) long limit,
            @RequestParam(defaultValue = "json") String format, HttpServletResponse response) throws IOException {
        long first = Requests.offset(offset);
        int count = Requests.limit(limit);
        String chosen = Requests.format(format);
        BoardSummary summary = Requests.storedAt(store, n, StoredLevel.ALL);
        if (chosen.equals("csv")) {
            writeCsv(response, "ordinal,placement,class_ordinal,orbit_size,symmetry", out -> store.forEachSolution(n,
                    first, count, row -> line(out, row.ordinal(), row.placement(), row.classOrdinal(), row.orbitSize(),
                            row.symmetry())));
            return;
        }
        writePage(response, summary, first, count, summary.totalSolutions(), "solutions",
                json -> store.forEachSolution(n, first, count, row -> JsonRows.solution(json, row)));
    }

    @GetMapping("/api/sizes/{n}/classes")
    void classes(@PathVariable int n, @RequestParam(defaultValue = "0") long offset,
            @RequestParam(defaultValue = "" + Requests.DEFAULT_LIMIT) long limit,
            @RequestParam(defaultValue = "json") String format, HttpServletResponse response) throws IOException {
        long first = Requests.offset(offset);
        int count = Requests.limit(limit);
        String chosen = Requests.format(format);
        BoardSummary summary = Requests.storedAt(store, n, StoredLevel.FUNDAMENTAL);
        if (chosen.equals("csv")) {
            writeCsv(response, "class_ordinal,placement,orbit_size,symmetry", out -> store.forEachFundamental(n,
                    first, count, row -> line(out, row.classOrdinal(), row.placement(), row.orbitSize(),
                            row.symmetry())));
            return;
        }
        writePage(response, summary, first, count, summary.fundamentalSolutions(), "classes",
                json -> store.forEachFundamental(n, first, count, row -> JsonRows.fundamental(json, row)));
    }

    @GetMapping("/api/runs")
    void runs(@RequestParam(defaultValue = "20") long limit, HttpServletResponse response) throws IOException {
        if (limit < 1 || limit > MAX_RUNS) {
            throw Problems.badRequest("limit " + limit + " is out of range: limit is 1.." + MAX_RUNS);
        }
        List<PastRun> runs = history.lastRuns((int) limit);
        response.setContentType(JSON);
        try (JsonGenerator json = JsonRows.generator(response.getOutputStream())) {
            json.writeStartObject();
            json.writeArrayPropertyStart("runs");
            runs.forEach(run -> JsonRows.run(json, run));
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    private interface Rows<T> {
        void writeTo(T out);
    }

    /** {@code {"n":8,"total":92,"offset":0,"limit":100,"next_offset":null,"<name>":[…]}}. */
    private static void writePage(HttpServletResponse response, BoardSummary summary, long offset, int limit,
            long total, String name, Rows<JsonGenerator> rows) throws IOException {
        response.setContentType(JSON);
        try (OutputStream body = response.getOutputStream(); JsonGenerator json = JsonRows.generator(body)) {
            json.writeStartObject();
            json.writeNumberProperty("n", summary.n());
            json.writeNumberProperty("total", total);
            json.writeNumberProperty("offset", offset);
            json.writeNumberProperty("limit", limit);
            if (offset + limit < total) {
                json.writeNumberProperty("next_offset", offset + limit);
            } else {
                json.writeNullProperty("next_offset");
            }
            json.writeArrayPropertyStart(name);
            rows.writeTo(json);
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    private static void writeCsv(HttpServletResponse response, String header, Rows<Writer> rows) throws IOException {
        response.setContentType(CSV);
        try (Writer out = new BufferedWriter(new OutputStreamWriter(response.getOutputStream(),
                StandardCharsets.UTF_8), 1 << 16)) {
            out.write(header);
            out.write('\n');
            rows.writeTo(out);
        }
    }

    private static void line(Writer out, Object... values) {
        try {
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    out.write(',');
                }
                out.write(JsonRows.csv(values[i]));
            }
            out.write('\n');
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
