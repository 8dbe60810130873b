package dev.nqueens.count;

import java.util.ArrayList;
import java.util.List;
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
 * rotations is met {@code s/t} times below the constellation and has {@code 8/t} solutions.
 *
 * <p>Any member of an orbit has the same completions up to symmetry, so each constellation is
 * searched in whichever of its 8 orientations a shallow estimate (the partial placements of the
 * first free rows) finds cheapest: that roughly halves the search against the worst orientation.
 * From n = 14 on, the last free rows are not searched but completed from a {@link BottomTable}
 * (meet in the middle), built once for all constellations that share their bottom, left and right
 * queens; work units keep such groups whole.
 *
 * <p>One instance per thread: it holds the search buffers and is not thread-safe.
 */
public final class CountingEngine {

    /** The largest board size: the bitboards are ints. */
    public static final int MAX_SIZE = 32;

    /** Below this many constellations a size is one unit: splitting it would only add overhead. */
    private static final int SINGLE_UNIT_BELOW = 200;
    /** Units aim at this many constellations on average (but keep table groups whole)... */
    private static final int CONSTELLATIONS_PER_UNIT = 4;
    /** ...but never more units than this, to keep the list of units small. */
    private static final int MAX_UNITS = 2048;

    private static final CountResult ONE_QUEEN = new CountResult(1, 1, 1, 0, 0);

    private final int n;
    private final List<StartConstellations.Ranked> constellations;
    private final InteriorSearch search;
    private final long[] bySymmetry = new long[3];

    /**
     * An engine for boards of size {@code n}.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32}
     */
    public CountingEngine(int n) {
        checkSize(n);
        this.n = n;
        this.constellations = StartConstellations.of(n);
        this.search = new InteriorSearch(n);
    }

    /**
     * The deterministic list of work units of size {@code n}, each a run of constellations of
     * comparable estimated cost that ends at the end of a table group (so each table is built
     * once per unit). Small sizes are one unit.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32}
     */
    public static List<WorkUnit> workUnits(int n) {
        checkSize(n);
        List<StartConstellations.Ranked> ranked = StartConstellations.of(n);
        if (ranked.size() < SINGLE_UNIT_BELOW) {
            return List.of(new WorkUnit(n, 0, 0, ranked.size()));
        }
        int target = Math.min(MAX_UNITS, ranked.size() / CONSTELLATIONS_PER_UNIT);
        long totalCost = 0;
        for (StartConstellations.Ranked r : ranked) {
            totalCost += r.cost();
        }
        long unitCost = Math.max(1, totalCost / target);
        List<WorkUnit> units = new ArrayList<>();
        int first = 0;
        long cost = 0;
        for (int i = 0; i < ranked.size(); i++) {
            cost += ranked.get(i).cost();
            boolean groupEnds = i == ranked.size() - 1
                    || StartConstellations.tableGroup(ranked.get(i).constellation())
                            != StartConstellations.tableGroup(ranked.get(i + 1).constellation());
            if (cost >= unitCost && groupEnds || i == ranked.size() - 1) {
                units.add(new WorkUnit(n, units.size(), first, i + 1 - first));
                first = i + 1;
                cost = 0;
            }
        }
        return List.copyOf(units);
    }

    /**
     * Counts one unit of this engine's size.
     *
     * @throws IllegalArgumentException if the unit is of another size or reaches past the size's
     *     constellations
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
        long asymmetricCompletions = 0;
        long total = 0;
        long rot90 = 0;
        long rot180 = 0;
        long asymmetric = 0;
        for (int i = unit.first(); i < unit.first() + unit.count(); i++) {
            StartConstellation c = constellations.get(i).constellation();
            search.load(c);
            if (c.symmetries() == 1) {
                asymmetricCompletions += search.countCompletions();
            } else {
                int s = c.symmetries();
                search.countBySymmetry(bySymmetry);
                total += (8 / s) * (bySymmetry[0] + bySymmetry[1] + bySymmetry[2]);
                asymmetric += exactly(bySymmetry[0], s, c);
                rot180 += exactly(2 * bySymmetry[1], s, c);
                rot90 += exactly(4 * bySymmetry[2], s, c);
            }
        }
        total += 8 * asymmetricCompletions;
        asymmetric += asymmetricCompletions;
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
     * queue, in order.
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
        List<WorkUnit> units = workUnits(n);
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
