package dev.nqueens.count;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * Counts the solutions, fundamental solutions and symmetry classes of an n×n board without
 * enumerating every solution, by meeting in the middle: the board is split into four quadrants,
 * the placements of each quadrant are tabulated once ({@link QuadrantTable}), and for each set
 * {@code C} of columns of the top half's queens the top and bottom halves are built from them
 * ({@link HalfBoard}) and every top and bottom placement that share no diagonal are counted as a
 * solution ({@link DisjointPairs}). An odd board first places the queens of its middle row and
 * middle column ({@link Segment}). The symmetries of the square act on the pairs {@code (C, L)},
 * {@code L} the rows of the left half's queens; only one pair of each orbit is counted, with the
 * orbit's size as weight, and the pairs that symmetries map onto themselves say exactly which
 * solutions are symmetric, so the fundamental count and the symmetry split come out exact
 * ({@link PairSymmetry}, {@link TaskCounter}). {@code docs/engine.md} explains the method with
 * figures and credits its sources.
 *
 * <p>Counts are exact up to n = 28: Q(29) does not fit in a long, and a count that would overflow
 * throws {@link ArithmeticException} instead of wrapping. Sizes above 25 are refused (their
 * quadrants are too large to search in reasonable time; see {@link #MAX_COUNTED_SIZE}).
 *
 * <p>One instance per thread: it holds the buffers of its halves and is not thread-safe; the
 * quadrant table is shared by all instances of a size.
 */
public final class CountingEngine {

    /** The largest board size the bitboards of the package hold. */
    public static final int MAX_SIZE = 32;
    /**
     * The largest size this engine counts: beyond it the pattern of a half (2(2h - 1) bits) and
     * the quadrant searches grow past what a 64-bit word and a day hold.
     */
    public static final int MAX_COUNTED_SIZE = 25;

    private static final CountResult ONE_QUEEN = new CountResult(1, 1, 1, 0, 0);

    private final int n;
    private final UnitPlan plan;
    private final TaskCounter counter;
    /** Keeps the shared table alive while this engine may use it. */
    private final QuadrantTable table;

    /**
     * An engine for boards of size {@code n}, counting with the layout chosen for this host
     * ({@link Layout#forHost()}), with the quadrant table if the heap holds it.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..MAX_COUNTED_SIZE}
     * @throws IllegalStateException if the heap cannot hold even the smallest layout of size
     *     {@code n} on one thread ({@link #heapBytesNeeded})
     */
    public CountingEngine(int n) {
        this(n, chooseLayout(n, Layout.forHost()));
    }

    /**
     * An engine for boards of size {@code n} that counts with {@code layout}: the layout changes
     * how fast a unit is counted, never what it counts.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..MAX_COUNTED_SIZE}
     */
    CountingEngine(int n, Layout layout) {
        checkCounted(n);
        this.n = n;
        this.plan = UnitPlan.of(n);
        if (n == 1) {
            this.table = null;
            this.counter = null;
            return;
        }
        int h = n / 2;
        this.table = layout.searchQuadrants() ? null : QuadrantTable.of(h);
        QuadrantSource source = table == null ? new QuadrantSearch(h) : table.reader();
        this.counter = new TaskCounter(n, new QuadrantPatterns(n, source), layout);
    }

    /**
     * The host's layout, or the same with quadrants searched if the table does not fit in the heap.
     * The heap in use counts garbage not yet collected (a job that has been storing rows leaves
     * plenty): when the first look says nothing fits, the heap is collected once and looked at again.
     */
    private static Layout chooseLayout(int n, Layout host) {
        try {
            return chooseLayout(n, host, Runtime.getRuntime().maxMemory() - usedHeap());
        } catch (IllegalStateException notEnough) {
            System.gc();
            return chooseLayout(n, host, Runtime.getRuntime().maxMemory() - usedHeap());
        }
    }

    /**
     * The layout for counting size {@code n} with {@code free} bytes of heap: {@code host}, or the
     * same with quadrants searched if the table does not fit.
     *
     * @throws IllegalStateException if not even one thread with searched quadrants fits
     */
    static Layout chooseLayout(int n, Layout host, long free) {
        checkCounted(n);
        if (n == 1) {
            return host;
        }
        for (Layout layout : List.of(host, host.searchingQuadrants())) {
            if (MemoryModel.sharedBytes(n, layout) + MemoryModel.threadBytes(n) <= free) {
                return layout;
            }
        }
        throw new IllegalStateException(String.format(
                "counting n=%d needs about %d MB of heap, %d MB are free:" + " start the JVM with a larger -Xmx",
                n, (MemoryModel.threadBytes(n) >> 20) + 1, free >> 20));
    }

    private static long usedHeap() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    /**
     * Bytes of Java heap that counting size {@code n} on {@code threads} threads needs with this
     * host's layout: the shared quadrant table and each thread's halves, sieve and tables, for
     * the largest column set of the size. A JVM given this much more than it uses otherwise
     * counts without running out of memory; with less, the engine searches quadrant cells instead
     * of tabulating them (slower, {@link MemoryModel#threadBytes} per thread) or refuses.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..MAX_COUNTED_SIZE} or
     *     {@code threads} is below 1
     */
    public static long heapBytesNeeded(int n, int threads) {
        checkCounted(n);
        if (threads < 1) {
            throw new IllegalArgumentException("need at least 1 thread, got " + threads);
        }
        if (n == 1) {
            return 0;
        }
        Layout host = Layout.forHost();
        return MemoryModel.sharedBytes(n, host) + threads * MemoryModel.threadBytes(n);
    }

    /**
     * The least heap counting size {@code n} can run with: one thread, quadrant cells searched
     * instead of tabulated if need be ({@link #heapBytesNeeded} is what counts at full speed).
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..MAX_COUNTED_SIZE}
     */
    public static long heapBytesAtLeast(int n) {
        checkCounted(n);
        return n == 1
                ? 0
                : MemoryModel.sharedBytes(n, Layout.forHost().searchingQuadrants()) + MemoryModel.threadBytes(n);
    }

    /** How engines count on this host, one line for the log (see {@code Layout}). */
    public static String hostLayout() {
        return Layout.forHost().describe();
    }

    /**
     * The deterministic list of work units of size {@code n}: runs of consecutive column sets of
     * one segment, of comparable estimated cost. It depends on the size alone (never on the host,
     * the layout or the thread count) and is computed once per size.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..MAX_COUNTED_SIZE}
     */
    public static List<WorkUnit> workUnits(int n) {
        checkCounted(n);
        return UnitPlan.of(n).units;
    }

    /**
     * A hex SHA-256 over a full description of every unit of size {@code n}: its position, its
     * segment, its first and last column set, under the engine's version of what a task counts.
     * Two builds whose units would count different things under the same index never share a
     * fingerprint; the layout a host counts with is not part of it. Computed once per size.
     *
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..MAX_COUNTED_SIZE}
     */
    public static String unitListFingerprint(int n) {
        checkCounted(n);
        return UnitPlan.of(n).fingerprint();
    }

    /**
     * Counts one unit of this engine's size.
     *
     * @throws IllegalArgumentException if the unit is of another size or reaches past the size's
     *     tasks
     * @throws ArithmeticException if a count does not fit in a long (only above n = 28)
     */
    public CountResult count(WorkUnit unit) {
        if (unit.n() != n) {
            throw new IllegalArgumentException("unit of size " + unit.n() + " given to an engine of size " + n);
        }
        if (n == 1) {
            if (unit.first() + (long) unit.count() > 0) {
                throw new IllegalArgumentException("unit " + unit.encode() + " reaches past the size's tasks");
            }
            // The single queen is on every line at once; its one class is fixed by all 8 symmetries.
            return ONE_QUEEN;
        }
        if ((long) unit.first() + unit.count() > plan.tasks()) {
            throw new IllegalArgumentException(
                    "unit " + unit.encode() + " reaches past the " + plan.tasks() + " tasks of size " + n);
        }
        Tally tally = new Tally();
        int task = unit.first();
        int end = unit.first() + unit.count();
        while (task < end) {
            int s = plan.segmentIndex(task, 1);
            Segment segment = plan.segments.get(s);
            int local = plan.localTask(s, task);
            int last = Math.min(segment.tasks(), local + end - task);
            int columns = segment.columnSet(local);
            for (int i = local; i < last; i++) {
                if (i > local) {
                    columns = segment.nextColumnSet(i - 1, columns);
                }
                counter.count(segment, columns, tally);
            }
            task += last - local;
        }
        return tally.result();
    }

    /**
     * Counts the whole size {@code n} on {@code threads} threads that take units from a shared
     * queue, the most expensive first (so that no thread is left with a long unit at the end).
     * If the heap holds fewer counting threads than asked for, fewer run
     * ({@link #heapBytesNeeded}).
     *
     * @param progress called with (units done, units in all) after each unit, from the worker
     *     threads; may be null
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..MAX_COUNTED_SIZE} or
     *     {@code threads} is less than 1
     * @throws IllegalStateException if a worker fails, the heap holds no counting thread, or the
     *     calling thread is interrupted
     */
    public static CountResult countAll(int n, int threads, BiConsumer<Integer, Integer> progress) {
        checkCounted(n);
        if (threads < 1) {
            throw new IllegalArgumentException("need at least 1 thread, got " + threads);
        }
        List<WorkUnit> units = new ArrayList<>(workUnits(n));
        units.sort(Comparator.comparingLong(WorkUnit::cost).reversed().thenComparingInt(WorkUnit::index));
        Layout layout = chooseLayout(n, Layout.forHost());
        int wanted = Math.min(threads, units.size());
        if (MemoryModel.threadsThatFit(n, layout) < wanted) {
            System.gc(); // the heap in use counts uncollected garbage (see chooseLayout)
        }
        int workers = Math.min(wanted, MemoryModel.threadsThatFit(n, layout));
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<CountResult> sum = new AtomicReference<>(CountResult.ZERO);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable worker = () -> {
            try {
                CountingEngine engine = new CountingEngine(n, layout);
                CountResult local = CountResult.ZERO;
                for (int i = next.getAndIncrement();
                        i < units.size() && failure.get() == null;
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

    private static void checkCounted(int n) {
        if (n < 1 || n > MAX_SIZE) {
            throw new IllegalArgumentException("board size " + n + " is outside 1.." + MAX_SIZE);
        }
        if (n > MAX_COUNTED_SIZE) {
            throw new IllegalArgumentException("board size " + n + " is beyond this engine's " + MAX_COUNTED_SIZE
                    + " (its half-board patterns would not fit in 64 bits)");
        }
    }
}
