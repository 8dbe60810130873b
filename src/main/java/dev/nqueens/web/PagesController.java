package dev.nqueens.web;

import dev.nqueens.query.RunHistory;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.StorageLimits;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The pages, from the Thymeleaf templates of {@code templates/}: {@code /} the report (every
 * published size, the growth plot, the last runs, the downloads), {@code /sizes/{n}} a size's
 * classes as board pictures, paged, and {@code /sizes/{n}/classes/{c}} the members of a class where
 * every solution is stored. Rendered on the server with every digit; no script.
 */
@Controller
@Profile(Serve.PROFILE)
class PagesController {

    /** Board pictures per page of a size. */
    static final int BOARDS_PER_PAGE = 48;

    private static final int RUNS_SHOWN = 10;

    /** A class as the size page shows it. */
    record ShownClass(long classOrdinal, String placement, int orbitSize, String symmetry, BoardPicture picture) {}

    /** A member of a class as its page shows it. */
    record ShownMember(long ordinal, String placement, int orbitSize, String symmetry, BoardPicture picture) {}

    private final SolutionStore store;
    private final RunHistory history;
    private final ExportFolder files;

    private final NqueensProperties settings;

    PagesController(SolutionStore store, RunHistory history, ExportFolder files, NqueensProperties settings) {
        this.store = store;
        this.history = history;
        this.files = files;
        this.settings = settings;
    }

    @GetMapping("/")
    String report(Model model) {
        List<BoardSummary> sizes = store.summaries();
        model.addAttribute("sizes", sizes);
        model.addAttribute("keptAbove", keptAboveSettings(sizes));
        model.addAttribute("growthPlot", GrowthPlot.svg(sizes));
        model.addAttribute("runs", history.lastRuns(RUNS_SHOWN));
        model.addAttribute("files", files.listed());
        return "report";
    }

    /**
     * The sizes stored at a higher level than the settings name, with that level: a run keeps them
     * (it drops rows only when asked), and the report says so.
     */
    private Map<Integer, StoredLevel> keptAboveSettings(List<BoardSummary> sizes) {
        StorageLimits limits = settings.storageLimits();
        Map<Integer, StoredLevel> kept = new TreeMap<>();
        sizes.stream()
                .filter(size ->
                        size.stored().ordinal() < limits.levelOf(size.n()).ordinal())
                .forEach(size -> kept.put(size.n(), limits.levelOf(size.n())));
        return kept;
    }

    @GetMapping("/sizes/{n}")
    String size(@PathVariable int n, @RequestParam(defaultValue = "1") long page, Model model) {
        BoardSummary summary = Requests.published(store, n);
        model.addAttribute("size", summary);
        if (summary.stored() == StoredLevel.COUNT) {
            if (page != 1) {
                throw Problems.notFound("n = " + n + " has no pages of classes: no solutions are stored");
            }
            model.addAttribute("classes", null);
            return "size";
        }
        long pages = Math.max(1, (summary.fundamentalSolutions() + BOARDS_PER_PAGE - 1) / BOARDS_PER_PAGE);
        if (page < 1 || page > pages) {
            throw page < 1
                    ? Problems.badRequest("page " + page + " is out of range: pages are 1.." + pages)
                    : Problems.notFound("n = " + n + " has " + pages + " page(s) of classes, not " + page);
        }
        long offset = (page - 1) * BOARDS_PER_PAGE;
        List<ShownClass> classes = new ArrayList<>(BOARDS_PER_PAGE);
        store.forEachRepresentative(
                n,
                offset,
                BOARDS_PER_PAGE,
                row -> classes.add(new ShownClass(
                        row.classOrdinal(),
                        row.placement(),
                        row.orbitSize(),
                        row.symmetry(),
                        BoardPicture.of(row.placement()))));
        model.addAttribute("classes", classes);
        model.addAttribute("first", offset + 1);
        model.addAttribute("last", Math.min(summary.fundamentalSolutions(), offset + BOARDS_PER_PAGE));
        model.addAttribute("withMembers", summary.stored() == StoredLevel.ALL);
        model.addAttribute("page", page);
        model.addAttribute("pages", pages);
        return "size";
    }

    @GetMapping("/sizes/{n}/classes/{classOrdinal}")
    String members(@PathVariable int n, @PathVariable long classOrdinal, Model model) {
        BoardSummary summary = Requests.storedAt(store, n, StoredLevel.ALL);
        if (classOrdinal < 1 || classOrdinal > summary.fundamentalSolutions()) {
            throw Problems.notFound(
                    "n = " + n + " has classes 1.." + summary.fundamentalSolutions() + ", not " + classOrdinal);
        }
        model.addAttribute("n", n);
        model.addAttribute("classOrdinal", classOrdinal);
        model.addAttribute("page", (classOrdinal - 1) / BOARDS_PER_PAGE + 1);
        model.addAttribute(
                "members",
                store.membersOfClass(n, classOrdinal).stream()
                        .map(member -> new ShownMember(
                                member.ordinal(),
                                member.placement(),
                                member.orbitSize(),
                                member.symmetry(),
                                BoardPicture.of(member.placement())))
                        .toList());
        return "members";
    }
}
