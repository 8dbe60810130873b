package dev.nqueens.h2;

import dev.nqueens.failure.Failure;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.h2.api.ErrorCode;

/**
 * Rebuilds the embedded H2 file after a run was killed, before anything else opens it.
 *
 * <p>Why: killed with SIGKILL in the middle of a transaction, H2 2.3 sometimes reopens the file
 * with part of that transaction still in it, and with rows that carry the dead transaction's
 * marks (seen as locks that never go away, or a table and its indexes that disagree). A logical
 * copy — {@code SCRIPT} to a dump, {@code RUNSCRIPT} into a fresh file — writes every row anew,
 * with fresh indexes and no transaction marks; the resumed step cuts the killed chunk's stray rows
 * off ({@code SolutionStore#trimToCheckpoint}). Seen with this store: without the rebuild, a run of
 * ReliabilityFunctionalTests resumed "Row not found when trying to delete from index" (docs/h2.md).
 *
 * <p>When: at a holder's start, if a Spring Batch execution or step is still marked as running
 * (SIGTERM marks it STOPPED: no rebuild). Crash-safe: the dump is renamed into place when complete
 * (then the source of truth), the fresh file built beside the old one and renamed over it.
 */
public final class H2CrashRecovery {

    private final H2File file;
    private final String user;
    private final String password;
    private final PrintStream out;

    public H2CrashRecovery(H2File file, String user, String password, PrintStream out) {
        this.file = file;
        this.user = user;
        this.password = password;
        this.out = out;
    }

    /**
     * Rebuilds the file if the last run died holding it, or finishes a rebuild that was itself
     * interrupted. Does nothing when the file is missing, clean, or held by another process (the
     * caller then reports the lock as usual).
     *
     * @return true if the file was rebuilt
     * @throws IllegalStateException if the rebuild fails (the original file or a complete dump is kept)
     */
    public boolean recoverIfNeeded() {
        Path dump = Path.of(file.path() + ".recovery.sql.gz");
        Path partial = Path.of(dump + ".partial");
        try {
            Files.deleteIfExists(partial);
            if (!Files.exists(dump)) {
                if (!Files.exists(file.dataFile()) || !dumpedAfterKilledRun(partial)) {
                    return false;
                }
                Files.move(partial, dump, StandardCopyOption.ATOMIC_MOVE);
            }
            long started = System.nanoTime();
            Path rebuilt = Path.of(file.path() + "-rebuilt");
            Files.deleteIfExists(Path.of(rebuilt + ".mv.db"));
            Files.deleteIfExists(Path.of(rebuilt + ".trace.db"));
            try (Connection connection = DriverManager.getConnection(file.url(rebuilt), user, password);
                    Statement statement = connection.createStatement()) {
                statement.execute("RUNSCRIPT FROM '" + dump + "' COMPRESSION \"GZIP\"");
                statement.execute("SHUTDOWN COMPACT");
            }
            Files.move(
                    Path.of(rebuilt + ".mv.db"),
                    file.dataFile(),
                    StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            Files.delete(dump);
            out.printf(
                    "nqueens: rebuilt %s in %.1f s; resuming%n", file.dataFile(), (System.nanoTime() - started) / 1e9);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rebuild " + file.dataFile() + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot rebuild " + file.dataFile() + " after the killed run: " + Failure.firstLine(e), e);
        }
    }

    /**
     * If a run died holding the file, dumps it to {@code partial} and says so; false if the file is
     * clean, has no job tables yet, or another process holds it.
     */
    private boolean dumpedAfterKilledRun(Path partial) throws SQLException, IOException {
        long started = System.nanoTime();
        String running = "('STARTING', 'STARTED', 'STOPPING')";
        try (Connection connection = DriverManager.getConnection(file.url(), user, password);
                Statement statement = connection.createStatement();
                ResultSet dead = statement.executeQuery("SELECT MAX(job_execution_id) FROM (SELECT job_execution_id"
                        + " FROM batch_job_execution WHERE status IN " + running + " UNION SELECT job_execution_id"
                        + " FROM batch_step_execution WHERE status IN " + running + ") dead")) {
            dead.next();
            long run = dead.getLong(1);
            if (dead.wasNull()) {
                return false;
            }
            out.printf(
                    "nqueens: run %d ended without closing the database (killed?); rebuilding %s from its"
                            + " rows before resuming ...%n",
                    run, file.dataFile());
            statement.execute("SCRIPT TO '" + partial + "' COMPRESSION \"GZIP\"");
            statement.execute("SHUTDOWN");
        } catch (SQLException e) {
            // Table missing (a database the job never ran on), or the file held by another process.
            if (e.getErrorCode() == ErrorCode.TABLE_OR_VIEW_NOT_FOUND_1
                    || H2File.heldElsewhere(e)
                    || e.getErrorCode() == ErrorCode.TABLE_OR_VIEW_NOT_FOUND_DATABASE_EMPTY_1) {
                return false;
            }
            throw e;
        }
        H2Backup.force(partial);
        out.printf("nqueens: dumped in %.1f s%n", (System.nanoTime() - started) / 1e9);
        return true;
    }
}
