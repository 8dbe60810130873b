package dev.nqueens.job;

import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.solver.Placement;
import dev.nqueens.solver.RepresentativeEnumerator;
import dev.nqueens.solver.StackBacktracker;
import dev.nqueens.store.Checkpoint;
import dev.nqueens.symmetry.ClassNumbers;
import dev.nqueens.symmetry.Reduction;
import dev.nqueens.symmetry.SymmetryReducer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The rows of one size, enumerated, classified and numbered on a thread of their own a few
 * thousand rows ahead of the chunk that stores them, so that the search and the database's work
 * go on side by side on two cores. At level ALL the stack backtracker gives every solution in
 * lexicographic order, the symmetry reducer its class, and {@link ClassNumbers} the class's
 * number (a representative, the smallest of its class, always comes first); at level FUNDAMENTAL
 * the representative enumerator gives only the representatives. The enumeration starts right after
 * the checkpoint's last row. Memory: a few batches of rows, and 8 bytes a class.
 */
final class SolutionSource implements AutoCloseable {

    /** One row to store: a solution (a class representative at level FUNDAMENTAL) with its class. */
    record Item(
            long ordinal, String placement, long classOrdinal, int transform, int orbitSize, boolean representative) {}

    private static final int BATCH = 4096;
    /** The batches in flight: {@link #batches}' capacity, one being filled, one being read. */
    private static final int BATCHES = 10;
    /** About what one row in flight takes: the item, its placement's text. */
    private static final long ROW_BYTES = 160;

    /**
     * The heap the enumeration of size {@code n} at {@code level} needs: at level ALL 8 bytes a
     * class of the size (its known count), and the rows in flight.
     */
    static long heapBytesNeeded(int n, StoredLevel level, KnownCounts known) {
        long classes = level == StoredLevel.ALL
                ? known.of(n).map(KnownCounts.Known::fundamentalSolutions).orElse(0L)
                : 0;
        return classes * Long.BYTES + (long) BATCH * BATCHES * ROW_BYTES;
    }

    private static final Item[] END = new Item[0];

    private final BlockingQueue<Item[]> batches = new ArrayBlockingQueue<>(BATCHES - 2);
    private final Thread producer;
    private volatile RuntimeException failure;
    private Item[] batch = new Item[0];
    private int next;
    private boolean ended;

    /**
     * Starts enumerating size {@code n} after {@code from}.
     *
     * @param classes at level ALL the classes stored so far, numbered; ignored at level FUNDAMENTAL
     */
    SolutionSource(int n, StoredLevel level, Checkpoint from, ClassNumbers classes) {
        Runnable enumeration =
                level == StoredLevel.ALL ? () -> solutions(n, from, classes) : () -> representatives(n, from);
        producer = new Thread(
                () -> {
                    try {
                        enumeration.run();
                        batches.put(END);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        failure = e;
                        batches.offer(END);
                    }
                },
                String.format("nqueens-solve-n%02d", n));
        producer.setDaemon(true);
        producer.start();
    }

    /** The next row, or null after the last. */
    Item next() {
        if (next == batch.length) {
            if (ended) {
                return null;
            }
            try {
                batch = batches.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for solutions", e);
            }
            next = 0;
            if (batch == END) {
                ended = true;
                if (failure != null) {
                    throw failure;
                }
                return null;
            }
        }
        return batch[next++];
    }

    /** Stops the enumeration (the step ended before the last row). */
    @Override
    public void close() {
        producer.interrupt();
    }

    private void solutions(int n, Checkpoint from, ClassNumbers classes) {
        StackBacktracker backtracker = new StackBacktracker(n);
        from.lastPlacement().map(Placement::parse).ifPresent(backtracker::resumeAfter);
        SymmetryReducer reducer = new SymmetryReducer(n);
        long ordinal = from.solutions();
        Emitter out = new Emitter();
        while (backtracker.next()) {
            Placement solution = backtracker.current();
            Reduction reduction = reducer.reduce(solution);
            boolean representative = reduction.isRepresentative(solution);
            long classOrdinal = representative
                    ? classes.add(solution.columns())
                    : classes.classOf(reduction.representative().columns());
            out.emit(new Item(
                    ++ordinal,
                    solution.toString(),
                    classOrdinal,
                    reduction.fromRepresentative(),
                    reduction.orbitSize(),
                    representative));
        }
        out.flush();
    }

    private void representatives(int n, Checkpoint from) {
        RepresentativeEnumerator enumerator = new RepresentativeEnumerator(
                n,
                from.lastPlacement()
                        .map(Placement::parse)
                        .map(Placement::columns)
                        .orElse(null));
        long classOrdinal = from.classes();
        Emitter out = new Emitter();
        for (int[] columns = enumerator.next(); columns != null; columns = enumerator.next()) {
            Placement representative = new Placement(columns);
            classOrdinal++;
            out.emit(new Item(classOrdinal, representative.toString(), classOrdinal, 0, enumerator.orbitSize(), true));
        }
        out.flush();
    }

    /** Hands rows over in batches; blocks while the consumer is a few batches behind. */
    private final class Emitter {

        private Item[] filling = new Item[BATCH];
        private int size;

        void emit(Item item) {
            filling[size++] = item;
            if (size == BATCH) {
                flush();
            }
        }

        void flush() {
            if (size == 0) {
                return;
            }
            Item[] full = size == BATCH ? filling : java.util.Arrays.copyOf(filling, size);
            try {
                batches.put(full);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Stopped();
            }
            filling = new Item[BATCH];
            size = 0;
        }
    }

    /** The consumer stopped reading: the enumeration ends quietly. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }
}
