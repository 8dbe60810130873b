package dev.nqueens.h2;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A backup of the embedded H2 file: a zip file holding the one file {@code nqueens.mv.db}, as H2's
 * {@code BACKUP TO} writes it, and putting one back in place.
 *
 * <p>Consistent: {@code BACKUP TO} commits H2's store, stops it from reusing free space and copies
 * the file while it goes on working; a store only ever appends, so the copy holds every chunk up
 * to the moment it began, whole. Taken between runs, it is the database as it stands; taken while
 * a run writes, it is the database as a kill at that moment would leave it: the next run after a
 * restore rebuilds the file and resumes that run ({@link H2CrashRecovery}).
 */
public final class H2Backup {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private H2Backup() {
    }

    /**
     * Writes a backup of the database {@code connection} is open on to {@code zip}: under a hidden
     * temporary name beside it, renamed when complete, so a file under the final name is whole.
     * The owner's {@code password}, if any, goes with it ({@value #PASSWORD_ENTRY}), so that it
     * opens where it is restored; the zip is then readable by its owner alone. An existing
     * {@code zip} is replaced.
     *
     * @throws SQLException if H2 cannot write the backup (e.g. the folder is not writable)
     */
    public static void take(Connection connection, Path zip, String password) throws SQLException, IOException {
        Path partial = zip.resolveSibling("." + zip.getFileName() + ".partial");
        try (Statement statement = connection.createStatement()) {
            statement.execute("BACKUP TO '" + partial.toAbsolutePath().toString().replace("'", "''") + "'");
            if (!password.isEmpty()) {
                Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-------"));
                try (FileSystem entries = FileSystems.newFileSystem(partial)) {
                    Files.writeString(entries.getPath(PASSWORD_ENTRY), password + "\n");
                }
            }
            try (FileChannel written = FileChannel.open(partial, StandardOpenOption.WRITE)) {
                written.force(true);
            }
            Files.move(partial, zip, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** The entry of a backup that holds the owner's password, beside the database file. */
    static final String PASSWORD_ENTRY = "owner.password";

    /**
     * What a backup file holds.
     *
     * @param entry the database file's name in it, e.g. {@code nqueens.mv.db}
     * @param bytes its uncompressed size
     */
    public record Contents(String entry, long bytes) {
    }

    /**
     * Reads a backup's table of contents.
     *
     * @throws NotABackupException if it is not a zip file holding exactly one H2 database file
     */
    public static Contents contents(Path zip) {
        try (ZipFile file = new ZipFile(zip.toFile())) {
            List<ZipEntry> entries = new ArrayList<>();
            for (Enumeration<? extends ZipEntry> all = file.entries(); all.hasMoreElements();) {
                ZipEntry entry = all.nextElement();
                if (!entry.getName().equals(PASSWORD_ENTRY)) {
                    entries.add(entry);
                }
            }
            if (entries.size() != 1 || !entries.get(0).getName().endsWith(".mv.db")
                    || entries.get(0).getName().contains("/")) {
                throw new NotABackupException("it holds " + entries.size() + " file(s), not one H2 database file"
                        + " (name.mv.db)");
            }
            return new Contents(entries.get(0).getName(), entries.get(0).getSize());
        } catch (IOException e) {
            throw new NotABackupException("it is not a readable zip file (" + e.getMessage() + ")");
        }
    }

    /** A file that is not a backup {@link #take} wrote; the message says why. */
    public static final class NotABackupException extends RuntimeException {
        NotABackupException(String message) {
            super(message);
        }
    }

    /** The file is open in another process: nothing was changed. */
    public static final class HeldException extends RuntimeException {
        HeldException() {
            super("held by another process");
        }
    }

    /**
     * What a restored database holds.
     *
     * @param schemaVersion the newest migration applied to it
     * @param published the published sizes
     * @param unfinishedRun the run that was under way when the backup was taken, if one was
     * @param replaced where the file it replaced was kept, if there was one
     */
    public record Restored(int schemaVersion, List<Integer> published, Optional<Long> unfinishedRun,
            Optional<Path> replaced) {
    }

    /** Checks a database about to be restored, before anything is replaced; throws to refuse it. */
    @FunctionalInterface
    public interface Check {
        void accept(Restored restored);
    }

    /**
     * Puts the database of {@code zip} in place of {@code target}'s file, while no process holds
     * it: the file is unpacked beside it, opened read-only to read what it holds (which
     * {@code check} may refuse), and renamed into place; an existing file is kept beside it as
     * {@code nqueens.replaced-<time>.mv.db}. An unfinished rebuild of the old file
     * ({@link H2CrashRecovery}'s dump) is dropped: it would overwrite the restored file.
     *
     * @throws HeldException if another process has the file open
     */
    public static Restored restore(Path zip, H2File target, String user, String password, Check check)
            throws IOException, SQLException {
        Files.createDirectories(target.path().getParent());
        Path restoring = Path.of(target.path() + "-restoring");
        Path unpacked = Path.of(restoring + ".mv.db");
        try (FileChannel current = Files.exists(target.dataFile())
                ? FileChannel.open(target.dataFile(), StandardOpenOption.READ, StandardOpenOption.WRITE) : null;
                FileLock lock = current == null ? null : exclusively(current)) {
            String itsPassword = unpack(zip, unpacked);
            Restored restored = describe(target.url(restoring) + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE", user, password,
                    itsPassword);
            check.accept(restored);
            Optional<Path> replaced = Optional.empty();
            if (current != null) {
                replaced = Optional.of(Path.of(target.path() + ".replaced-" + STAMP.format(LocalDateTime.now())
                        + ".mv.db"));
                Files.move(target.dataFile(), replaced.get(), StandardCopyOption.ATOMIC_MOVE);
            }
            Files.deleteIfExists(Path.of(target.path() + ".recovery.sql.gz"));
            Files.move(unpacked, target.dataFile(), StandardCopyOption.ATOMIC_MOVE);
            if (!password.isEmpty()) {
                // The password kept here, on a backup made without it or elsewhere.
                OwnerPassword.adopt(target, user, password, itsPassword, "");
            } else if (!itsPassword.isEmpty()) {
                OwnerPassword.keep(target, itsPassword);
            }
            return new Restored(restored.schemaVersion(), restored.published(), restored.unfinishedRun(), replaced);
        } finally {
            Files.deleteIfExists(unpacked);
            Files.deleteIfExists(Path.of(restoring + ".trace.db"));
        }
    }

    /** H2 locks a file it opens; a lock this process cannot take means another one holds it. */
    private static FileLock exclusively(FileChannel file) throws IOException {
        try {
            FileLock lock = file.tryLock();
            if (lock == null) {
                throw new HeldException();
            }
            return lock;
        } catch (OverlappingFileLockException e) {
            throw new HeldException();
        }
    }

    /** Unpacks the database file; returns the owner's password the backup holds, or none. */
    private static String unpack(Path zip, Path unpacked) throws IOException {
        String password = "";
        try (ZipFile file = new ZipFile(zip.toFile())) {
            for (Enumeration<? extends ZipEntry> entries = file.entries(); entries.hasMoreElements();) {
                ZipEntry entry = entries.nextElement();
                try (InputStream in = file.getInputStream(entry)) {
                    if (entry.getName().equals(PASSWORD_ENTRY)) {
                        password = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip();
                    } else {
                        Files.copy(in, unpacked, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
        try (FileChannel written = FileChannel.open(unpacked, StandardOpenOption.WRITE)) {
            written.force(true);
        }
        return password;
    }

    private static Restored describe(String url, String user, String password, String itsPassword)
            throws SQLException {
        try (Connection connection = OwnerPassword.connect(url, user, password, itsPassword, "");
                Statement statement = connection.createStatement()) {
            int version = 0;
            try (ResultSet rows = statement.executeQuery(
                    "SELECT version FROM flyway_schema_history WHERE version IS NOT NULL AND success")) {
                while (rows.next()) {
                    version = Math.max(version, Integer.parseInt(rows.getString(1).trim()));
                }
            } catch (SQLException e) {
                throw new NotABackupException("it holds no nqueens schema (" + e.getMessage().lines().findFirst()
                        .orElse("") + ")");
            }
            List<Integer> published = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SELECT n FROM board_summary ORDER BY n")) {
                while (rows.next()) {
                    published.add(rows.getInt(1));
                }
            }
            Optional<Long> unfinished = Optional.empty();
            try (ResultSet rows = statement.executeQuery("SELECT MAX(job_execution_id) FROM batch_job_execution"
                    + " WHERE status IN ('STARTING', 'STARTED', 'STOPPING')")) {
                rows.next();
                long id = rows.getLong(1);
                unfinished = rows.wasNull() ? Optional.empty() : Optional.of(id);
            }
            return new Restored(version, published, unfinished, Optional.empty());
        }
    }
}
