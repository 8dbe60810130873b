package dev.nqueens.web;

import dev.nqueens.export.ManifestEntry;
import dev.nqueens.query.PastRun;
import dev.nqueens.query.RunHistory;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionRow;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.settings.StoredLevel;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.springframework.context.annotation.Profile;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The pages: {@code /} the report (every published size, the growth plot, the last runs, the
 * downloads), {@code /sizes/{n}} a size's classes as board pictures, paged, and
 * {@code /sizes/{n}/classes/{c}} the members of a class where every solution is stored. Rendered
 * on the server with every digit; no script.
 */
@RestController
@Profile(Serve.PROFILE)
class PagesController {

    /** Board pictures per page of a size. */
    static final int BOARDS_PER_PAGE = 48;
    private static final int RUNS_SHOWN = 10;
    private static final MediaType HTML = MediaType.parseMediaType("text/html;charset=UTF-8");

    private final SolutionStore store;
    private final RunHistory history;
    private final ExportFolder files;

    PagesController(SolutionStore store, RunHistory history, ExportFolder files) {
        this.store = store;
        this.history = history;
        this.files = files;
    }

    @GetMapping("/")
    ResponseEntity<String> report() {
        List<BoardSummary> sizes = store.summaries();
        StringBuilder body = new StringBuilder(32_768);
        body.append("<h1>N-Queens: solutions per board size</h1>\n");
        sizesTable(body, sizes);
        body.append("<h2>Growth</h2>\n<figure>").append(GrowthPlot.svg(sizes)).append("</figure>\n");
        runsTable(body, history.lastRuns(RUNS_SHOWN));
        filesTable(body, files.listed());
        return html(Html.page("nqueens: results", body.toString()));
    }

    @GetMapping("/sizes/{n}")
    ResponseEntity<String> size(@PathVariable int n, @RequestParam(defaultValue = "1") long page) {
        BoardSummary summary = Requests.published(store, n);
        StringBuilder body = new StringBuilder(65_536);
        body.append("<h1>n = ").append(n).append("</h1>\n");
        counts(body, summary);
        if (summary.stored() == StoredLevel.COUNT) {
            if (page != 1) {
                throw Problems.notFound("n = " + n + " has no pages of classes: no solutions are stored");
            }
            body.append("<p class=\"no-solutions\">n = ").append(n).append(" is stored as counts only:")
                    .append(" no solutions are stored, so there are no boards to show.</p>\n");
            return html(Html.page("nqueens: n = " + n, body.toString()));
        }
        long pages = Math.max(1, (summary.fundamentalSolutions() + BOARDS_PER_PAGE - 1) / BOARDS_PER_PAGE);
        if (page < 1 || page > pages) {
            throw page < 1 ? Problems.badRequest("page " + page + " is out of range: pages are 1.." + pages)
                    : Problems.notFound("n = " + n + " has " + pages + " page(s) of classes, not " + page);
        }
        long offset = (page - 1) * BOARDS_PER_PAGE;
        long shownTo = Math.min(summary.fundamentalSolutions(), offset + BOARDS_PER_PAGE);
        body.append("<h2>Classes ").append(Html.digits(offset + 1)).append("–").append(Html.digits(shownTo))
                .append(" of ").append(Html.digits(summary.fundamentalSolutions())).append("</h2>\n");
        body.append("<p>Each class is drawn by its representative, its lexicographically smallest member.")
                .append(summary.stored() == StoredLevel.ALL ? " Follow a class to its members." : "").append("</p>\n");
        pager(body, n, page, pages);
        body.append("<div class=\"boards\">\n");
        int pixels = Math.max(96, Math.min(160, 16 * n));
        store.forEachRepresentative(n, offset, BOARDS_PER_PAGE, row -> {
            body.append("<figure class=\"class\" data-class=\"").append(row.classOrdinal()).append("\">")
                    .append(BoardPicture.svg(row.placement(), pixels)).append("<figcaption>Class ")
                    .append(row.classOrdinal()).append("<br><code>").append(Html.escape(row.placement()))
                    .append("</code><br>").append(symmetry(row.symmetry())).append(", orbit ").append(row.orbitSize());
            if (summary.stored() == StoredLevel.ALL) {
                body.append("<br><a href=\"/sizes/").append(n).append("/classes/").append(row.classOrdinal())
                        .append("\">").append(row.orbitSize()).append(" member").append(row.orbitSize() == 1 ? "" : "s")
                        .append("</a>");
            }
            body.append("</figcaption></figure>\n");
        });
        body.append("</div>\n");
        pager(body, n, page, pages);
        return html(Html.page("nqueens: n = " + n, body.toString()));
    }

    @GetMapping("/sizes/{n}/classes/{classOrdinal}")
    ResponseEntity<String> members(@PathVariable int n, @PathVariable long classOrdinal) {
        BoardSummary summary = Requests.storedAt(store, n, StoredLevel.ALL);
        if (classOrdinal < 1 || classOrdinal > summary.fundamentalSolutions()) {
            throw Problems.notFound("n = " + n + " has classes 1.." + summary.fundamentalSolutions() + ", not "
                    + classOrdinal);
        }
        List<SolutionRow> members = store.membersOfClass(n, classOrdinal);
        StringBuilder body = new StringBuilder(16_384);
        body.append("<h1>n = ").append(n).append(", class ").append(classOrdinal).append("</h1>\n<p><a href=\"/sizes/")
                .append(n).append("?page=").append((classOrdinal - 1) / BOARDS_PER_PAGE + 1).append("\">All classes of n = ")
                .append(n).append("</a></p>\n");
        if (!members.isEmpty()) {
            body.append("<p>").append(symmetry(members.get(0).symmetry())).append(", orbit ")
                    .append(members.get(0).orbitSize()).append(": its ").append(members.size())
                    .append(" member(s), by solution number.</p>\n");
        }
        body.append("<div class=\"boards\">\n");
        int pixels = Math.max(96, Math.min(160, 16 * n));
        for (SolutionRow member : members) {
            body.append("<figure class=\"member\" data-ordinal=\"").append(member.ordinal()).append("\">")
                    .append(BoardPicture.svg(member.placement(), pixels)).append("<figcaption>No. ")
                    .append(Html.digits(member.ordinal())).append("<br><code>").append(Html.escape(member.placement()))
                    .append("</code></figcaption></figure>\n");
        }
        body.append("</div>\n");
        return html(Html.page("nqueens: n = " + n + ", class " + classOrdinal, body.toString()));
    }

    private static void sizesTable(StringBuilder body, List<BoardSummary> sizes) {
        if (sizes.isEmpty()) {
            body.append("<p>No size is published yet: <code>./nqueens run</code> computes them.</p>\n");
            return;
        }
        body.append("<table id=\"sizes\"><thead><tr><th>n</th><th>solutions Q(n)</th><th>classes U(n)</th>")
                .append("<th>rot90</th><th>rot180</th><th>asymmetric</th><th>stored</th><th>computed</th>")
                .append("<th>time</th></tr></thead><tbody>\n");
        for (BoardSummary size : sizes) {
            body.append("<tr data-n=\"").append(size.n()).append("\"><td><a href=\"/sizes/").append(size.n())
                    .append("\">").append(size.n()).append("</a></td><td class=\"q\">")
                    .append(Html.digits(size.totalSolutions())).append("</td><td class=\"u\">")
                    .append(Html.digits(size.fundamentalSolutions())).append("</td><td>")
                    .append(Html.digits(size.rot90Classes())).append("</td><td>").append(Html.digits(size.rot180Classes()))
                    .append("</td><td>").append(Html.digits(size.asymmetricClasses())).append("</td><td>")
                    .append(size.stored()).append("</td><td>").append(Html.time(size.computedAt())).append("</td><td>")
                    .append(Html.seconds(size.elapsedMs() / 1000.0)).append("</td></tr>\n");
        }
        body.append("</tbody></table>\n<p class=\"note\">Stored: ALL every solution, FUNDAMENTAL the class")
                .append(" representatives, COUNT the counts only. rot90 / rot180 / asymmetric: classes unchanged by a")
                .append(" quarter turn, by a half turn only, by neither.</p>\n");
    }

    private static void runsTable(StringBuilder body, List<PastRun> runs) {
        body.append("<h2>Last runs</h2>\n");
        if (runs.isEmpty()) {
            body.append("<p>No run yet.</p>\n");
            return;
        }
        body.append("<table id=\"runs\"><thead><tr><th>run</th><th>started</th><th>status</th><th>duration</th>")
                .append("<th>sizes</th><th>published</th><th>rows written</th></tr></thead><tbody>\n");
        for (PastRun run : runs) {
            body.append("<tr><td>").append(run.run()).append("</td><td>")
                    .append(run.started() == null ? "" : Html.escape(run.started().truncatedTo(ChronoUnit.SECONDS).toString()))
                    .append("</td><td class=\"status ").append(Html.escape(run.status())).append("\">")
                    .append(Html.escape(run.status())).append("</td><td>")
                    .append(run.seconds() == null ? "" : Html.seconds(run.seconds().doubleValue())).append("</td><td>")
                    .append(Html.escape(run.sizes())).append("</td><td>")
                    .append(run.published() == null ? "" : Html.escape(run.published())).append("</td><td>")
                    .append(Html.digits(run.rowsWritten()))
                    .append("</td></tr>\n");
        }
        body.append("</tbody></table>\n");
    }

    private static void filesTable(StringBuilder body, List<ManifestEntry> files) {
        body.append("<h2>Downloads</h2>\n");
        if (files.isEmpty()) {
            body.append("<p>Nothing exported yet.</p>\n");
            return;
        }
        body.append("<p>Check what you downloaded with <code>sha256sum -c --ignore-missing SHA256SUMS</code>.</p>\n")
                .append("<table id=\"files\"><thead><tr><th>file</th><th>bytes</th><th>SHA-256</th></tr></thead>")
                .append("<tbody>\n");
        for (ManifestEntry file : files) {
            body.append("<tr><td><a href=\"/files/").append(Html.escape(file.name())).append("\">")
                    .append(Html.escape(file.name())).append("</a></td><td>").append(Html.digits(file.bytes()))
                    .append("</td><td><code>").append(Html.escape(file.sha256())).append("</code></td></tr>\n");
        }
        body.append("</tbody></table>\n");
    }

    private static void counts(StringBuilder body, BoardSummary size) {
        body.append("<p class=\"counts\"><span class=\"q\">").append(Html.digits(size.totalSolutions()))
                .append("</span> solutions in <span class=\"u\">").append(Html.digits(size.fundamentalSolutions()))
                .append("</span> classes (").append(Html.digits(size.rot90Classes())).append(" rot90, ")
                .append(Html.digits(size.rot180Classes())).append(" rot180, ").append(Html.digits(size.asymmetricClasses()))
                .append(" asymmetric); stored ").append(size.stored()).append(", computed ")
                .append(Html.time(size.computedAt())).append(" in ").append(Html.seconds(size.elapsedMs() / 1000.0))
                .append(".</p>\n");
    }

    private static String symmetry(String symmetry) {
        return switch (symmetry) {
            case "ROT90" -> "unchanged by a quarter turn (ROT90)";
            case "ROT180" -> "unchanged by a half turn (ROT180)";
            default -> "no symmetry (NONE)";
        };
    }

    private static void pager(StringBuilder body, int n, long page, long pages) {
        if (pages == 1) {
            return;
        }
        body.append("<nav class=\"pager\">");
        if (page > 1) {
            body.append("<a rel=\"prev\" href=\"/sizes/").append(n).append("?page=").append(page - 1).append("\">previous</a> ");
        }
        body.append("page ").append(page).append(" of ").append(Html.digits(pages));
        if (page < pages) {
            body.append(" <a rel=\"next\" href=\"/sizes/").append(n).append("?page=").append(page + 1).append("\">next</a>");
        }
        body.append("</nav>\n");
    }

    private static ResponseEntity<String> html(String page) {
        return ResponseEntity.ok().contentType(HTML).body(page);
    }
}
