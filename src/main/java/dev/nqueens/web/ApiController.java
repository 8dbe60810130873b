package dev.nqueens.web;

import dev.nqueens.export.Rows;
import dev.nqueens.query.PastRun;
import dev.nqueens.query.RunHistory;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.RepresentativeRow;
import dev.nqueens.store.SolutionRow;
import dev.nqueens.store.SolutionStore;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SequenceWriter;

/**
 * The JSON API for scripts: the published sizes, one size, a page of its solutions or classes
 * (also as CSV), the last runs. Pages are ranges of ordinals, streamed from the database to the
 * response. Parameters are checked before the first byte is written, so a bad one gets a problem; an
 * offset at or past the last row (up to the largest {@code long}) gets an empty page, read from nothing.
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
        try (JsonGenerator json = Rows.JSON.createGenerator(response.getOutputStream())) {
            json.writeStartObject();
            json.writeArrayPropertyStart("sizes");
            summaries.forEach(json::writePOJO);
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    @GetMapping("/api/sizes/{n}")
    void size(@PathVariable int n, HttpServletResponse response) throws IOException {
        BoardSummary summary = Requests.published(store, n);
        response.setContentType(JSON);
        try (JsonGenerator json = Rows.JSON.createGenerator(response.getOutputStream())) {
            json.writePOJO(summary);
        }
    }

    @GetMapping("/api/sizes/{n}/solutions")
    void solutions(
            @PathVariable int n,
            @RequestParam(defaultValue = "0") long offset,
            @RequestParam(defaultValue = "" + Requests.DEFAULT_LIMIT) long limit,
            @RequestParam(defaultValue = "json") String format,
            HttpServletResponse response)
            throws IOException {
        long first = Requests.offset(offset);
        int count = Requests.limit(limit);
        String chosen = Requests.format(format);
        BoardSummary summary = Requests.storedAt(store, n, StoredLevel.ALL);
        boolean rows = first < summary.totalSolutions();
        if (chosen.equals("csv")) {
            writeCsv(response, SolutionRow.class, out -> {
                if (rows) {
                    store.forEachSolution(n, first, count, out::write);
                }
            });
            return;
        }
        writePage(response, summary, first, count, summary.totalSolutions(), "solutions", json -> {
            if (rows) {
                store.forEachSolution(n, first, count, json::writePOJO);
            }
        });
    }

    @GetMapping("/api/sizes/{n}/classes")
    void classes(
            @PathVariable int n,
            @RequestParam(defaultValue = "0") long offset,
            @RequestParam(defaultValue = "" + Requests.DEFAULT_LIMIT) long limit,
            @RequestParam(defaultValue = "json") String format,
            HttpServletResponse response)
            throws IOException {
        long first = Requests.offset(offset);
        int count = Requests.limit(limit);
        String chosen = Requests.format(format);
        BoardSummary summary = Requests.storedAt(store, n, StoredLevel.FUNDAMENTAL);
        boolean rows = first < summary.fundamentalSolutions();
        if (chosen.equals("csv")) {
            writeCsv(response, RepresentativeRow.class, out -> {
                if (rows) {
                    store.forEachRepresentative(n, first, count, out::write);
                }
            });
            return;
        }
        writePage(response, summary, first, count, summary.fundamentalSolutions(), "classes", json -> {
            if (rows) {
                store.forEachRepresentative(n, first, count, json::writePOJO);
            }
        });
    }

    @GetMapping("/api/runs")
    void runs(@RequestParam(defaultValue = "20") long limit, HttpServletResponse response) throws IOException {
        if (limit < 1 || limit > MAX_RUNS) {
            throw Problems.badRequest("limit " + limit + " is out of range: limit is 1.." + MAX_RUNS);
        }
        List<PastRun> runs = history.lastRuns((int) limit);
        response.setContentType(JSON);
        try (JsonGenerator json = Rows.JSON.createGenerator(response.getOutputStream())) {
            json.writeStartObject();
            json.writeArrayPropertyStart("runs");
            runs.forEach(json::writePOJO);
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    private interface Page<T> {
        void writeTo(T out);
    }

    /**
     * {@code {"n":8,"total":92,"offset":0,"limit":100,"next_offset":null,"<name>":[…]}}: {@code next_offset}
     * is null on the last page, and on an empty page past the last row.
     */
    private static void writePage(
            HttpServletResponse response,
            BoardSummary summary,
            long offset,
            int limit,
            long total,
            String name,
            Page<JsonGenerator> rows)
            throws IOException {
        response.setContentType(JSON);
        try (OutputStream body = response.getOutputStream();
                JsonGenerator json = Rows.JSON.createGenerator(body)) {
            json.writeStartObject();
            json.writeNumberProperty("n", summary.n());
            json.writeNumberProperty("total", total);
            json.writeNumberProperty("offset", offset);
            json.writeNumberProperty("limit", limit);
            if (offset < total - limit) { // offset + limit < total, which could overflow
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

    /** The rows as CSV with their header, through a 64 KB buffer. */
    private static void writeCsv(HttpServletResponse response, Class<?> type, Page<SequenceWriter> rows)
            throws IOException {
        response.setContentType(CSV);
        try (OutputStream body = new BufferedOutputStream(response.getOutputStream(), 1 << 16);
                SequenceWriter out = Rows.csv(type, body)) {
            rows.writeTo(out);
        }
    }
}
