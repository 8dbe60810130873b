package dev.nqueens.job;

import dev.nqueens.count.CountingEngine;
import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.StoredLevel;
import java.util.List;

/**
 * Whether the sizes a run computes fit in the heap of this JVM, checked when the run is planned,
 * before any of them is counted or stored: a size that cannot fit is refused with the heap it
 * needs and how to give it, instead of running out of memory halfway.
 */
final class HeapCheck {

    /** Heap beside a size's own: Spring, Batch, H2's cache, a chunk of rows. */
    static final long BASE = 128L << 20;

    private HeapCheck() {}

    /**
     * @param known the published counts, which give a stored size's rows
     * @param counting whether this JVM counts the sizes it does not store (not a cluster's
     *     coordinator, whose workers count them)
     * @param heap the largest heap this JVM may use ({@link Runtime#maxMemory})
     * @throws InvalidInputException naming the first size that does not fit
     */
    static void check(List<SizePlan> plan, KnownCounts known, boolean counting, long heap) {
        for (SizePlan size : plan) {
            if (!size.computes() || size.level() == StoredLevel.COUNT && !counting) {
                continue;
            }
            long needed = BASE
                    + (size.level() == StoredLevel.COUNT
                            ? CountingEngine.heapBytesAtLeast(size.n())
                            : SolutionSource.heapBytesNeeded(size.n(), size.level(), known));
            if (needed > heap) {
                long megabytes = (needed >> 20) + 1;
                throw new InvalidInputException(String.format(
                        "n=%d needs about %d MB of heap, this JVM has %d MB:"
                                + " give it more, e.g. NQUEENS_JAVA_OPTS=-Xmx%dm",
                        size.n(), megabytes, heap >> 20, megabytes));
            }
        }
    }
}
