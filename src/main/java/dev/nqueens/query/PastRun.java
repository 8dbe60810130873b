package dev.nqueens.query;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One run of the nightly job as {@code history} lists it.
 *
 * @param run the job execution id
 * @param started when it started, null if it never did
 * @param ended when it ended, null while running or when its process died
 * @param status Spring Batch's status: COMPLETED, FAILED, STOPPED, STARTED, ABANDONED, …, or
 *     {@code WINDOW CLOSED} (stopped by its time window; the next run goes on)
 * @param sizes the sizes asked for, e.g. {@code 1-18}
 * @param published the sizes whose rows it computed and published, e.g. {@code 17 18}; null if none
 * @param rowsWritten solutions stored by its solve steps
 * @param seconds its duration, null if it has not ended
 * @param notes what else it did with sizes (lowered on request, kept above the settings' level) and
 *     the runs with nothing to compute folded into its line; null if nothing
 */
public record PastRun(
        long run,
        Instant started,
        Instant ended,
        String status,
        String sizes,
        String published,
        long rowsWritten,
        BigDecimal seconds,
        String notes) {}
