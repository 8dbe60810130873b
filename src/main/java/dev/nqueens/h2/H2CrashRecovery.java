package dev.nqueens.h2;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * Rebuilds the embedded H2 file after a run was killed, before anything else opens it.
 *
 * <p>Why: killed with SIGKILL in the middle of a transaction, H2 2.3 sometimes reopens the file
 * with part of that transaction still in it, and with rows that carry the dead transaction's
 * marks (seen as locks that never go away, or a table and its indexes that disagree). A logical
 * copy — {@code SCRIPT} to a dump, {@code RUNSCRIPT} into a fresh file — writes every row anew,
 * with fresh indexes and no transaction marks. The copy still holds the killed chunk's stray
 * rows; the resumed step cuts them off (see {@link SolutionStore#trimToCheckpoint}).
 * {@code ReliabilityFunctionalTests} kills runs on H2 while they store, build indexes, publish and
 * export, and checks that the next run ends exact after this rebuild.
 *
 * <p>When: a Spring Batch execution or step is still marked as running while this process holds
 * the file (an embedded H2 file admits one process, so no run is alive). A clean stop (SIGTERM)
 * marks the run STOPPED and needs no rebuild.
 *
 * <p>Crash-safe itself: the dump is written under a temporary name and renamed when complete
 * (from then on it is the source of truth), the fresh file is built beside the old one and renamed
 * over it in one step. Whatever kills the rebuild, the next start finds either no complete dump
 * (the original file is untouched: start again) or a complete dump (rebuild from it again).
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

    private Path dump() {
        return Path.of(file.path() + ".recovery.sql.gz");
    }

    private Path partialDump() {
        return Path.of(file.path() + ".recovery.sql.gz.partial");
    }

    private Path rebuilt() {
        return Path.of(file.path() + "-rebuilt");
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
        try {
            Files.deleteIfExists(partialDump());
            if (Files.exists(dump())) {
                restoreFromDump();
                return true;
            }
            if (!Files.exists(file.dataFile())) {
                return false;
            }
            Optional<Long> dead = deadExecutionDumped();
            if (dead.isEmpty()) {
                return false;
            }
            restoreFromDump();
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rebuild " + file.dataFile() + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot rebuild " + file.dataFile() + " after the killed run: "
                    + e.getMessage().lines().findFirst().orElse(""), e);
        }
    }

    /**
     * If a run died holding the file, dumps it and returns the dead execution's id; empty if the
     * file is clean, has no job tables yet, or another process holds it.
     */
    private Optional<Long> deadExecutionDumped() throws SQLException, IOException {
        long started = System.nanoTime();
        Long dead;
        try (Connection connection = DriverManager.getConnection(file.url(), user, password);
                Statement statement = connection.createStatement()) {
            dead = deadExecution(statement);
            if (dead == null) {
                return Optional.empty();
            }
            out.printf("nqueens: run %d ended without closing the database (killed?); rebuilding %s from its"
                    + " rows before resuming ...%n", dead, file.dataFile());
            statement.execute("SCRIPT TO '" + partialDump() + "' COMPRESSION \"GZIP\"");
            statement.execute("SHUTDOWN");
        } catch (SQLException e) {
            if (isLockedOrMissing(e)) {
                return Optional.empty();
            }
            throw e;
        }
        try (FileChannel channel = FileChannel.open(partialDump(), StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(partialDump(), dump(), StandardCopyOption.ATOMIC_MOVE);
        out.printf("nqueens: dumped in %.1f s%n", (System.nanoTime() - started) / 1e9);
        return Optional.of(dead);
    }

    private static Long deadExecution(Statement statement) throws SQLException {
        String running = "('STARTING', 'STARTED', 'STOPPING')";
        try (ResultSet rows = statement.executeQuery("SELECT MAX(job_execution_id) FROM ("
                + " SELECT job_execution_id FROM batch_job_execution WHERE status IN " + running
                + " UNION SELECT job_execution_id FROM batch_step_execution WHERE status IN " + running + ") dead")) {
            rows.next();
            long id = rows.getLong(1);
            return rows.wasNull() ? null : id;
        }
    }

    /** Table missing (a database the job never ran on) or the file held by another process. */
    private static boolean isLockedOrMissing(SQLException e) {
        return e.getErrorCode() == 42104 || e.getErrorCode() == 42102 || e.getErrorCode() == 90020
                || String.valueOf(e.getMessage()).contains("The file is locked");
    }

    /** Builds a fresh file from the complete dump and puts it in place of the old one in one rename. */
    private void restoreFromDump() throws SQLException, IOException {
        long started = System.nanoTime();
        Path fresh = Path.of(rebuilt() + ".mv.db");
        Files.deleteIfExists(fresh);
        Files.deleteIfExists(Path.of(rebuilt() + ".trace.db"));
        try (Connection connection = DriverManager.getConnection(file.url(rebuilt()), user, password);
                Statement statement = connection.createStatement()) {
            statement.execute("RUNSCRIPT FROM '" + dump() + "' COMPRESSION \"GZIP\"");
            statement.execute("SHUTDOWN COMPACT");
        }
        Files.move(fresh, file.dataFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(dump());
        out.printf("nqueens: rebuilt %s in %.1f s; resuming%n", file.dataFile(), (System.nanoTime() - started) / 1e9);
    }
}
