package dev.nqueens.count;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * Counts the solutions, fundamental solutions and symmetry classes of an n×n board without
 * enumerating every solution. Every solution has exactly one queen in each border line; those
 * queens form its start constellation, and a symmetry of the board maps the constellation of a
 * solution to the constellation of its image. So only canonical constellations (one per orbit)
 * are completed, by {@link InteriorSearch}, and each completion is weighted: a constellation that
 * no symmetry fixes (nearly all of them) stands for 8 solutions per completion, all in one
 * asymmetric class. The few constellations fixed by {@code s} = 2 or 4 rotations are completed
 * on a slower path that inspects each solution: a class whose solutions are fixed by {@code t}
 * rotations is met {@code s/t} times below the constellation and has {@code 8/t} solutions. Their
 * completions are counted on the fast path too, and those a rotation leaves unchanged (a few) are
 * counted on the side by {@link RotationFixedCompletions}.
 *
 * <p>Any member of an orbit has the same completions up to symmetry, so each constellation is
 * searched in whichever of its 8 orientations a shallow estimate (the partial placements of the
 * first free rows) finds cheapest: that roughly halves the search against the worst orientation.
 * From n = 14 on, the last free rows are not searched but completed from a {@link BottomTable}
 * (meet in the middle), built once for all constellations that share their bottom, left and right
 * queens; work units keep such groups whole up to n = 18 and cut the larger ones from n = 19 on.
 *
 * <p>Counts are exact up to n = 28: Q(29) does not fit in a long, and a count that would overflow
 * throws {@link ArithmeticException} instead of wrapping.
 *
 * <p>One instance per thread: it holds the search buffers and is not thread-safe.
 */
public final class CountingEngine {

    /** The largest board size: the bitboards are ints. Counts overflow a long from n = 29 on. */
    public static final int MAX_SIZE = 32;

    /** Below this many constellations a size is one unit: splitting it would only add overhead. */
    private static final int SINGLE_UNIT_BELOW = 200;
    /** Up to n = 18, units aim at this many constellations on average (but keep table groups whole)... */
    private static final int CONSTELLATIONS_PER_UNIT = 4;
    /** ...but never more units than this, to keep the list of units small. */
    private static final int MAX_UNITS = 2048;
    /**
     * From this size on, units aim at this many constellations on average, and a table group that
     * costs more than one unit is cut into several (each builds the group's table again, a few
     * percent of the group's time): thousands of units, so that many workers each get several.
     */
    private static final int SPLIT_GROUPS_FROM = 19;
    private static final int CONSTELLATIONS_PER_SPLIT_UNIT = 2;

    private static final CountResult ONE_QUEEN = new CountResult(1, 1, 1, 0, 0);
    private static final Map<Integer, List<WorkUnit>> UNITS = new ConcurrentHashMap<>();
    private static final Map<Integer, String> FINGERPRINTS = new ConcurrentHashMap<>();

    private final int n;
    private final List<StartConstellations.Ranked> constellations;
    private final InteriorSearch search;
    private final RotationFixedCompletions rotationFixed;

    /**
     * An engine for boards of size {@code n}, searching with the layout chosen for this host
     * ({@link Layout#forHost()}).
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32}
     */
    public CountingEngine(int n) {
        this(n, Layout.forHost());
    }

    /**
     * An engine for boards of size {@code n} that searches with {@code layout}: the layout
     * changes how fast a unit is counted, never what it counts.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32}
     */
    CountingEngine(int n, Layout layout) {
        checkSize(n);
        this.n = n;
        this.constellations = StartConstellations.of(n);
        this.search = new InteriorSearch(n, layout.tableRows(n), layout.maxTableEntries(), layout.setsPerPartition());
        this.rotationFixed = new RotationFixedCompletions(n);
    }

    /**
     * The Java heap a count of size {@code n} on {@code threads} threads needs beside the rest of
     * the program: enough for the layout to let each thread's bottom table reach its largest size
     * (it bounds a thread's table by a quarter of the heap per core); nothing where no table is built.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32} or {@code threads} is below 1
     */
    public static long heapBytesNeeded(int n, int threads) {
        checkSize(n);
        if (threads < 1) {
            throw new IllegalArgumentException("need at least 1 thread, got " + threads);
        }
        return Layout.forCache(1 << 20).tableRows(n) == 0 ? 0
                : 4L * Math.max(threads, Runtime.getRuntime().availableProcessors()) * Layout.largestTableBytes();
    }

    /**
     * How engines search on this host, one line for the log: the L2 size the layout was chosen
     * from and the table rows it gives (see {@code Layout}).
     */
    public static String hostLayout() {
        return Layout.forHost().describe();
    }

    /**
     * The deterministic list of work units of size {@code n}: runs of consecutive constellations
     * of comparable estimated cost. Up to n = 18 a unit ends at the end of a table group (so each
     * table is built once); from n = 19 on a group that costs more than a unit is cut into
     * several. Small sizes are one unit. The list depends on the size alone (never on the host,
     * the layout or the thread count) and is computed once per size.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32}
     */
    public static List<WorkUnit> workUnits(int n) {
        checkSize(n);
        return UNITS.computeIfAbsent(n, CountingEngine::cut);
    }

    private static List<WorkUnit> cut(int n) {
        List<StartConstellations.Ranked> ranked = StartConstellations.of(n);
        long totalCost = 0;
        for (StartConstellations.Ranked r : ranked) {
            totalCost += r.cost();
        }
        if (ranked.size() < SINGLE_UNIT_BELOW) {
            return List.of(new WorkUnit(n, 0, 0, ranked.size(), totalCost));
        }
        boolean splitGroups = n >= SPLIT_GROUPS_FROM;
        int target = splitGroups ? ranked.size() / CONSTELLATIONS_PER_SPLIT_UNIT
                : Math.min(MAX_UNITS, ranked.size() / CONSTELLATIONS_PER_UNIT);
        long unitCost = Math.max(1, totalCost / target);
        List<WorkUnit> units = new ArrayList<>();
        int first = 0;
        long cost = 0;
        long groupRest = 0;
        for (int i = 0; i < ranked.size(); i++) {
            StartConstellation c = ranked.get(i).constellation();
            if (i == 0 || StartConstellations.tableGroup(c)
                    != StartConstellations.tableGroup(ranked.get(i - 1).constellation())) {
                groupRest = groupCost(ranked, i);
            }
            cost += ranked.get(i).cost();
            groupRest -= ranked.get(i).cost();
            boolean groupEnds = groupRest == 0 && (i == ranked.size() - 1
                    || StartConstellations.tableGroup(ranked.get(i + 1).constellation())
                            != StartConstellations.tableGroup(c));
            // Cut inside a group only where the rest of the group is worth a unit of its own.
            boolean mayCut = groupEnds || splitGroups && groupRest >= unitCost / 2;
            if (cost >= unitCost && mayCut || i == ranked.size() - 1) {
                units.add(new WorkUnit(n, units.size(), first, i + 1 - first, cost));
                first = i + 1;
                cost = 0;
            }
        }
        return List.copyOf(units);
    }

    /** The summed cost of the table group that starts at position {@code from}. */
    private static long groupCost(List<StartConstellations.Ranked> ranked, int from) {
        int group = StartConstellations.tableGroup(ranked.get(from).constellation());
        long cost = 0;
        for (int i = from; i < ranked.size() && StartConstellations.tableGroup(ranked.get(i).constellation()) == group;
                i++) {
            cost += ranked.get(i).cost();
        }
        return cost;
    }

    /**
     * A hex SHA-256 over a full description of every unit of size {@code n}: its position, its
     * constellations in order, each with its border queens in the orientation it is searched in
     * and its symmetry count. Two builds whose units would count different things under the same
     * index never share a fingerprint; the layout a host searches with is not part of it. Computed
     * once per size.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32}
     */
    public static String unitListFingerprint(int n) {
        checkSize(n);
        return FINGERPRINTS.computeIfAbsent(n, CountingEngine::fingerprint);
    }

    private static String fingerprint(int n) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        List<StartConstellations.Ranked> ranked = StartConstellations.of(n);
        StringBuilder text = new StringBuilder();
        text.append("nqueens counting engine work units v2: n=").append(n)
                .append("; a unit counts the solutions of the orbits of its start constellations (top, bottom,"
                        + " left, right, symmetries; each orbit once, all of its completions)\n");
        for (WorkUnit unit : workUnits(n)) {
            text.append("unit ").append(unit.index()).append(':');
            for (int i = unit.first(); i < unit.first() + unit.count(); i++) {
                StartConstellation c = ranked.get(i).constellation();
                text.append(' ').append(c.top()).append(',').append(c.bottom()).append(',').append(c.left())
                        .append(',').append(c.right()).append(',').append(c.symmetries());
            }
            text.append('\n');
            digest.update(text.toString().getBytes(StandardCharsets.US_ASCII));
            text.setLength(0);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * Counts one unit of this engine's size.
     *
     * @throws IllegalArgumentException if the unit is of another size or reaches past the size's
     *     constellations
     * @throws ArithmeticException if a count does not fit in a long (only above n = 28)
     */
    public CountResult count(WorkUnit unit) {
        if (unit.n() != n) {
            throw new IllegalArgumentException("unit of size " + unit.n() + " given to an engine of size " + n);
        }
        if ((long) unit.first() + unit.count() > constellations.size()) {
            throw new IllegalArgumentException("unit " + unit.encode() + " reaches past the "
                    + constellations.size() + " constellations of size " + n);
        }
        if (n == 1) {
            // The single queen is all four border lines at once; its one class is fixed by all 8.
            return ONE_QUEEN;
        }
        long total = 0;
        long rot90 = 0;
        long rot180 = 0;
        long asymmetric = 0;
        search.takeCompletions();
        for (int i = unit.first(); i < unit.first() + unit.count(); i++) {
            StartConstellation c = constellations.get(i).constellation();
            search.load(c);
            int s = c.symmetries();
            if (s == 1) {
                // Counted in batches: the sum comes after the loop.
                search.addCompletions();
            } else {
                long completions = search.countCompletions();
                long halfTurnFixed = rotationFixed.count(c, RotationFixedCompletions.HALF_TURN);
                long quarterTurnFixed = s == 4 ? rotationFixed.count(c, RotationFixedCompletions.QUARTER_TURN) : 0;
                total = Math.addExact(total, Math.multiplyExact(8 / s, completions));
                asymmetric = Math.addExact(asymmetric, exactly(completions - halfTurnFixed, s, c));
                rot180 = Math.addExact(rot180, exactly(2 * (halfTurnFixed - quarterTurnFixed), s, c));
                rot90 = Math.addExact(rot90, exactly(4 * quarterTurnFixed, s, c));
            }
        }
        long asymmetricCompletions = search.takeCompletions();
        total = Math.addExact(total, Math.multiplyExact(8, asymmetricCompletions));
        asymmetric = Math.addExact(asymmetric, asymmetricCompletions);
        return new CountResult(total, rot90 + rot180 + asymmetric, rot90, rot180, asymmetric);
    }

    /** The number of classes behind {@code visits} completions, each class met {@code s} times. */
    private static long exactly(long visits, int s, StartConstellation c) {
        if (visits % s != 0) {
            throw new IllegalStateException(visits + " visits are not whole classes below " + c);
        }
        return visits / s;
    }

    /**
     * Counts the whole size {@code n} on {@code threads} threads that take units from a shared
     * queue, the most expensive first (so that no thread is left with a long unit at the end).
     *
     * @param progress called with (units done, units in all) after each unit, from the worker
     *     threads; may be null
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32} or {@code threads}
     *     is less than 1
     * @throws IllegalStateException if a worker fails or the calling thread is interrupted
     */
    public static CountResult countAll(int n, int threads, BiConsumer<Integer, Integer> progress) {
        checkSize(n);
        if (threads < 1) {
            throw new IllegalArgumentException("need at least 1 thread, got " + threads);
        }
        List<WorkUnit> units = new ArrayList<>(workUnits(n));
        units.sort(Comparator.comparingLong(WorkUnit::cost).reversed().thenComparingInt(WorkUnit::index));
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<CountResult> sum = new AtomicReference<>(CountResult.ZERO);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable worker = () -> {
            try {
                CountingEngine engine = new CountingEngine(n);
                CountResult local = CountResult.ZERO;
                for (int i = next.getAndIncrement(); i < units.size() && failure.get() == null;
                        i = next.getAndIncrement()) {
                    local = local.plus(engine.count(units.get(i)));
                    int finished = done.incrementAndGet();
                    if (progress != null) {
                        progress.accept(finished, units.size());
                    }
                }
                CountResult mine = local;
                sum.accumulateAndGet(mine, CountResult::plus);
            } catch (RuntimeException | Error e) {
                failure.compareAndSet(null, e);
            }
        };
        int workers = Math.min(threads, units.size());
        List<Thread> pool = new ArrayList<>();
        for (int t = 1; t < workers; t++) {
            Thread thread = new Thread(worker, "nqueens-count-" + n + "-" + t);
            thread.start();
            pool.add(thread);
        }
        worker.run();
        for (Thread thread : pool) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure.compareAndSet(null, e);
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("counting size " + n + " failed", failure.get());
        }
        return sum.get();
    }

    private static void checkSize(int n) {
        if (n < 1 || n > MAX_SIZE) {
            throw new IllegalArgumentException("board size " + n + " is outside 1.." + MAX_SIZE);
        }
    }
}
