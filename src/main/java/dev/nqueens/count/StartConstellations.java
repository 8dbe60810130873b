package dev.nqueens.count;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One start constellation of each orbit under the 8 symmetries of a board size, so that every
 * class of solutions is reached from exactly one of them. An orbit is taken once, when the loop
 * over all border positions meets its canonical member (the smallest by
 * {@link StartConstellation#key()}), and is then turned into the orientation that a shallow
 * estimate finds cheapest to search. They are ordered so that constellations that share a
 * {@link BottomTable} (same bottom, left and right queen) are next to each other, the groups by
 * their positions and each group largest first. The order is deterministic: work units refer to
 * positions in it.
 */
final class StartConstellations {

    /**
     * How many free rows the estimate that picks the orientation to search (and balances work
     * units) fills: deeper picks better but costs more; at 4 the estimate takes about 1% of the
     * search it steers.
     */
    static final int ORIENTATION_ROWS = 4;

    private static final Map<Integer, List<Ranked>> CACHE = new ConcurrentHashMap<>();

    /** A constellation and its estimated cost. */
    record Ranked(StartConstellation constellation, long cost) {
    }

    private StartConstellations() {
    }

    /**
     * One constellation per orbit of size {@code n}, each in the orientation the estimate finds
     * cheapest, with that estimate, grouped by bottom, left and right queen; empty for n = 1,
     * whose only queen is in every border line at once.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32}
     */
    static List<Ranked> of(int n) {
        if (n < 1 || n > 32) {
            throw new IllegalArgumentException("board size " + n + " is outside 1..32");
        }
        return CACHE.computeIfAbsent(n, StartConstellations::generate);
    }

    private static List<Ranked> generate(int n) {
        List<Ranked> ranked = new ArrayList<>();
        if (n == 1) {
            return List.of();
        }
        InteriorSearch search = new InteriorSearch(n, 0);
        for (int top = 0; top < n; top++) {
            for (int bottom = 0; bottom < n; bottom++) {
                for (int left = 0; left < n; left++) {
                    for (int right = 0; right < n; right++) {
                        StartConstellation c = canonical(n, top, bottom, left, right);
                        if (c != null) {
                            ranked.add(cheapestImage(c, ORIENTATION_ROWS, search));
                        }
                    }
                }
            }
        }
        // Stable sort: equal keys keep the generation order, so the list is the same every run.
        ranked.sort(Comparator.comparingInt((Ranked r) -> tableGroup(r.constellation()))
                .thenComparing(Comparator.comparingLong(Ranked::cost).reversed()));
        return List.copyOf(ranked);
    }

    /**
     * The queens a {@link BottomTable} depends on, as one number: constellations with equal
     * groups can share a table.
     */
    static int tableGroup(StartConstellation c) {
        return c.bottom() << 10 | c.left() << 5 | c.right();
    }

    /**
     * The image of {@code constellation} that is cheapest to complete by the estimate over
     * {@code rows} free rows, with that estimate. All 8 images have the same completions up to
     * symmetry, but the top-down search below them costs from about half to the whole of the
     * worst one's, depending on where the border queens prune; the canonical form only decides
     * which orbit is searched, not in which orientation.
     */
    static Ranked cheapestImage(StartConstellation constellation, int rows, InteriorSearch search) {
        StartConstellation best = null;
        long bestCost = Long.MAX_VALUE;
        for (int g = 0; g < StartConstellation.SYMMETRY_COUNT; g++) {
            StartConstellation image = constellation.transformed(g);
            search.load(image);
            long cost = search.countPartial(rows);
            if (cost < bestCost) {
                best = image;
                bestCost = cost;
            }
        }
        return new Ranked(best, bestCost);
    }

    /**
     * The constellation of these border positions if they are valid and canonical, else null.
     * Its symmetry count is the number of symmetries that map it to its own key.
     */
    private static StartConstellation canonical(int n, int top, int bottom, int left, int right) {
        if (!StartConstellation.isValid(n, top, bottom, left, right)) {
            return null;
        }
        int key = StartConstellation.key(top, bottom, left, right);
        int symmetries = 1;
        for (int g = 1; g < StartConstellation.SYMMETRY_COUNT; g++) {
            int image = StartConstellation.imageKey(n, g, top, bottom, left, right);
            if (image < key) {
                return null;
            }
            if (image == key) {
                symmetries++;
            }
        }
        return new StartConstellation(n, top, bottom, left, right, symmetries);
    }
}
