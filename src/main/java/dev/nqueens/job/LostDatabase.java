package dev.nqueens.job;

import dev.nqueens.failure.DiskFull;
import dev.nqueens.failure.Failure;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells a failure that came from losing the database — its server restarted, failed over or could
 * not be reached for a while — from every other failure, by the driver's types and SQL states, never
 * by wording: such a failure is worth doing again once the database is back, from the last commit.
 * A partition that failed so ends with {@link #EXIT_CODE}, which its manager reads wherever it ran.
 */
public final class LostDatabase {

    /** The exit code of a partition that failed because its database connection was lost. */
    public static final String EXIT_CODE = "DATABASE_LOST";

    /** The exit status of a partition that failed on a lost connection. */
    public static final ExitStatus EXIT_STATUS = new ExitStatus(
            EXIT_CODE, "the database connection was lost; the partition is run again from its last commit");

    private LostDatabase() {}

    /**
     * Whether {@code failure}, or one of its causes, is a lost or refused database connection. A
     * rollback that failed hides the failure that caused it: when a session is ended (57P01) the pool
     * closes the connection at once, so the rollback fails with the pool's "Connection is closed",
     * which has no SQL state, and Spring throws that instead. The hidden failure, which Spring keeps
     * as the application exception, is looked at too.
     */
    public static boolean isCause(Throwable failure) {
        if (DiskFull.isCause(failure)) {
            // The database went away because its disk is full (H2 closes the file): waiting brings nothing back.
            return false;
        }
        return Failure.causes(failure)
                .anyMatch(t -> t instanceof LostDatabaseException
                        || t instanceof SQLTransientConnectionException
                        || t instanceof SQLRecoverableException
                        || t instanceof SQLException sql && connectionState(sql.getSQLState())
                        || t instanceof TransactionSystemException rollback
                                && rollback.getApplicationException() != null
                                && isCause(rollback.getApplicationException()));
    }

    /**
     * Does again what failed on a lost database connection, with growing pauses, until it succeeds,
     * fails otherwise, or {@code wait} has passed.
     */
    public static RetryTemplate retryUntilBack(Duration wait) {
        return new RetryTemplate(RetryPolicy.builder()
                .predicate(LostDatabase::isCause)
                .maxRetries(Integer.MAX_VALUE)
                .delay(Duration.ofMillis(500))
                .multiplier(1.5)
                .maxDelay(Duration.ofSeconds(5))
                .timeout(wait)
                .build());
    }

    /**
     * SQL states of a connection lost or refused: class 08 (connection exception: refused, broken,
     * closed), and PostgreSQL's 57P01-57P03 (the server terminated the session on a shutdown or a
     * crash, or does not take connections yet while it starts).
     */
    static boolean connectionState(String state) {
        return state != null
                && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03"));
    }

    /** Whether a partition ended on a lost database connection: its exit code, or Batch's UNKNOWN (its update failed). */
    public static boolean lostBy(StepExecution partition) {
        return partition.getStatus() == BatchStatus.UNKNOWN
                || EXIT_CODE.equals(partition.getExitStatus().getExitCode());
    }

    /**
     * Gives a partition that failed on a lost connection the exit code {@link #EXIT_CODE} (its
     * manager runs it again), wherever it runs.
     */
    static final class ExitCodeListener implements StepExecutionListener {

        @Override
        public ExitStatus afterStep(StepExecution partition) {
            if (partition.getStatus().isUnsuccessful()
                    && partition.getFailureExceptions().stream().anyMatch(LostDatabase::isCause)) {
                return EXIT_STATUS;
            }
            return null;
        }
    }

    /**
     * A failure of a run that came from losing the database, in the product's words: the run is
     * done again from its last commit once the database is back.
     */
    public static final class LostDatabaseException extends RuntimeException {

        public LostDatabaseException(String message) {
            super(message);
        }

        public LostDatabaseException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
