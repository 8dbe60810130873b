package dev.nqueens.job;

import dev.nqueens.failure.Failure;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * The last scheduled night of this process that could not start (the run lock not taken, the
 * database not reached), as {@link NightlyScheduler} records it. Kept in memory: the scheduler of
 * {@code serve} and its nightly health run in one JVM, and a start that failed left no trace in the
 * job repository for the health to read.
 */
@Component
public class NightlyStarts {

    /**
     * A scheduled night that could not start.
     *
     * @param scheduled when it was due
     * @param failed when its start failed
     * @param reason why, in one line
     */
    public record FailedStart(Instant scheduled, Instant failed, String reason) {}

    private final AtomicReference<FailedStart> lastFailed = new AtomicReference<>();

    void failed(Instant scheduled, Instant failed, Throwable cause) {
        lastFailed.set(new FailedStart(scheduled, failed, Failure.firstLine(cause)));
    }

    /** The last night that could not start, if one did not. */
    public Optional<FailedStart> lastFailed() {
        return Optional.ofNullable(lastFailed.get());
    }
}
