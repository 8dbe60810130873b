package dev.nqueens.failure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Tells a failure that came from a full disk: the operating system's "No space left on device"
 * (ENOSPC, as the JDK reports it for any file) under the failure, or PostgreSQL's {@code disk_full}
 * (SQL state 53100) from the server. Such a failure is not the database going away (nothing comes
 * back by waiting): the run stops at once, and the line that says so names the place to free.
 */
public final class DiskFull {

    /** PostgreSQL's SQL state for "could not extend file" and the like. */
    static final String POSTGRES_DISK_FULL = "53100";
    /** What the JDK's file I/O says of ENOSPC. */
    static final String NO_SPACE = "No space left on device";

    /** Less usable space than this, on the file system of a database file, is a full disk. */
    private static final long NEARLY_FULL = 1 << 20;

    private DiskFull() {}

    /**
     * Whether the file system holding {@code file} (or its nearest existing folder) is full. H2 does
     * not always end on the write that met the full disk: it may fail next on reading back the chunk
     * it could not finish ({@code EOFException}), with no ENOSPC among the causes.
     */
    public static boolean full(Path file) {
        Path existing = file;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            return existing != null && Files.getFileStore(existing).getUsableSpace() < NEARLY_FULL;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether {@code failure}, or one of its causes, is a full disk. */
    public static boolean isCause(Throwable failure) {
        return local(failure) || serverSays(failure).isPresent();
    }

    /** The first line of the database server's out-of-space error, if that is the failure. */
    public static Optional<String> serverSays(Throwable failure) {
        return Failure.causes(failure)
                .filter(t -> t instanceof SQLException sql && POSTGRES_DISK_FULL.equals(sql.getSQLState()))
                .findFirst()
                .map(sql -> sql.getMessage() == null ? NO_SPACE : sql.getMessage())
                .map(Failure::firstLine);
    }

    /** Whether a file of this process could not be written for want of space. */
    private static boolean local(Throwable failure) {
        return Failure.causes(failure)
                .anyMatch(t -> t instanceof IOException
                        && t.getMessage() != null
                        && t.getMessage().contains(NO_SPACE));
    }

    /** A failure that names the place it could not write (the export folder). */
    public interface Place {
        /** {@code the export folder /srv/nqueens/output}. */
        String place();
    }

    /**
     * The one line for a full disk, naming what to free: the server's own words; or the place a
     * {@link Place} among the failure's causes names; or the H2 file {@code h2DataFile}, if the
     * database is one ("the database" otherwise).
     */
    public static String describe(Throwable failure, Optional<Path> h2DataFile) {
        Optional<String> says = serverSays(failure);
        if (says.isPresent()) {
            return "the database server is out of disk space (" + says.get()
                    + "); once space is freed the next run resumes";
        }
        String place = Failure.causes(failure)
                .filter(Place.class::isInstance)
                .map(Place.class::cast)
                .findFirst()
                .map(Place::place)
                .orElseGet(() -> h2DataFile.map(file -> "the H2 file " + file).orElse("the database"));
        return "no space left on the device of " + place + "; once space is freed the next run resumes";
    }
}
