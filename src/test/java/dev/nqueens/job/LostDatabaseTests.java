package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.TransactionSystemException;

/** A lost database is told by the driver's types and SQL states, wrapped however deep; nothing else is. */
class LostDatabaseTests {

    @Test
    void aServerRestartAFailoverOrAnUnreachableServerIsALostDatabase() {
        // PostgreSQL ends every session on `pg_ctl restart -m fast` (57P01), refuses connections while it
        // starts (57P03); the driver reports a broken or refused connection in class 08; the pool a timeout.
        for (String state : List.of("57P01", "57P02", "57P03", "08001", "08003", "08006")) {
            assertThat(LostDatabase.isCause(new SQLException("x", state)))
                    .as(state)
                    .isTrue();
        }
        assertThat(LostDatabase.isCause(new TransactionSystemException(
                        "JDBC rollback failed", new SQLException("This connection has been closed.", "08003"))))
                .isTrue();
        assertThat(LostDatabase.isCause(rollbackFailedAfter(new SQLException("terminating connection", "57P01"))))
                .as("a rollback on the connection the pool closed hides the lost session")
                .isTrue();
        assertThat(LostDatabase.isCause(new CannotGetJdbcConnectionException(
                        "no connection",
                        new SQLTransientConnectionException("HikariPool-1 - Connection is not available"))))
                .isTrue();
        assertThat(LostDatabase.isCause(new IllegalStateException(new LostDatabase.LostDatabaseException("lost"))))
                .isTrue();
    }

    @Test
    void otherDatabaseErrorsAndAWrongLoginAreNot() {
        for (String state : List.of("23505", "42P01", "28P01", "40001", "3D000")) {
            assertThat(LostDatabase.isCause(new SQLException("x", state)))
                    .as(state)
                    .isFalse();
        }
        assertThat(LostDatabase.isCause(new IllegalStateException("boom"))).isFalse();
        assertThat(LostDatabase.isCause(new SQLException("no state"))).isFalse();
        assertThat(LostDatabase.isCause(rollbackFailedAfter(new SQLException("duplicate key", "23505"))))
                .isFalse();
        assertThat(LostDatabase.isCause(new TransactionSystemException(
                        "JDBC rollback failed", new SQLException("Connection is closed"))))
                .isFalse();
    }

    /**
     * What Spring throws when a statement failed and the rollback then failed too: HikariCP closes a
     * connection whose statement failed with a connection state at once, and its closed proxy throws a
     * state-less "Connection is closed"; the statement's failure is only the application exception.
     */
    private static TransactionSystemException rollbackFailedAfter(SQLException statementFailure) {
        TransactionSystemException rollbackFailed =
                new TransactionSystemException("JDBC rollback failed", new SQLException("Connection is closed"));
        rollbackFailed.initApplicationException(
                new UncategorizedSQLException("getJobExecution", "SELECT ...", statementFailure));
        return rollbackFailed;
    }

    @Test
    void aPartitionThatFailedOnALostDatabaseEndsWithItsExitCodeAndOthersKeepTheirs() {
        LostDatabase.ExitCodeListener listener = new LostDatabase.ExitCodeListener();
        StepExecution lost = partition(BatchStatus.FAILED, new SQLException("terminating connection", "57P01"));
        assertThat(listener.afterStep(lost).getExitCode()).isEqualTo(LostDatabase.EXIT_CODE);
        lost.setExitStatus(ExitStatus.FAILED.and(listener.afterStep(lost)));
        assertThat(LostDatabase.lostBy(lost)).isTrue();

        StepExecution failed = partition(BatchStatus.FAILED, new IllegalStateException("a bug"));
        assertThat(listener.afterStep(failed)).isNull();
        assertThat(LostDatabase.lostBy(failed)).isFalse();
        assertThat(listener.afterStep(partition(BatchStatus.COMPLETED, null))).isNull();
        assertThat(LostDatabase.lostBy(partition(BatchStatus.UNKNOWN, null)))
                .as("its end could not be recorded")
                .isTrue();
    }

    private static StepExecution partition(BatchStatus status, Throwable failure) {
        JobExecution job = new JobExecution(1L, new JobInstance(1L, "nightly"), new JobParameters());
        StepExecution partition = new StepExecution(2L, "countPart:n17-p0001-of-0008", job);
        partition.setStatus(status);
        partition.setExitStatus(status == BatchStatus.COMPLETED ? ExitStatus.COMPLETED : ExitStatus.FAILED);
        if (failure != null) {
            partition.addFailureException(failure);
        }
        return partition;
    }
}
