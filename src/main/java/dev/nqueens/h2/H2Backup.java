package dev.nqueens.h2;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A backup of the embedded H2 file: a zip file holding the one file {@code nqueens.mv.db}, as H2's
 * {@code BACKUP TO} writes it (and the owner's password, {@value #PASSWORD_ENTRY}), and putting
 * one back in place.
 *
 * <p>Consistent: {@code BACKUP TO} commits H2's store, stops it from reusing free space and copies
 * the file while it goes on working; a store only ever appends, so the copy holds every chunk up
 * to the moment it began, whole. Taken between runs, it is the database as it stands; taken while
 * a run writes, it is the database as a kill at that moment would leave it: the next run after a
 * restore rebuilds the file and resumes that run ({@link H2CrashRecovery}).
 */
public final class H2Backup {

    /** The entry of a backup that holds the owner's password, beside the database file. */
    static final String PASSWORD_ENTRY = "owner.password";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private H2Backup() {}

    /**
     * Writes a backup of the database {@code connection} is open on to {@code zip}: under a hidden
     * temporary name beside it, renamed when complete, so a file under the final name is whole.
     * The owner's {@code password}, if any, goes with it, so that it opens where it is restored;
     * the zip is then readable by its owner alone. An existing {@code zip} is replaced.
     *
     * @throws SQLException if H2 cannot write the backup (e.g. the folder is not writable)
     */
    public static void take(Connection connection, Path zip, String password) throws SQLException, IOException {
        Path partial = zip.resolveSibling("." + zip.getFileName() + ".partial");
        try (Statement statement = connection.createStatement()) {
            statement.execute(
                    "BACKUP TO '" + partial.toAbsolutePath().toString().replace("'", "''") + "'");
            if (!password.isEmpty()) {
                Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-------"));
                try (FileSystem entries = FileSystems.newFileSystem(partial)) {
                    Files.writeString(entries.getPath(PASSWORD_ENTRY), password + "\n");
                }
            }
            force(partial);
            Files.move(partial, zip, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /**
     * The name of the database file a backup holds, e.g. {@code nqueens.mv.db}.
     *
     * @throws NotABackupException if it is not a zip file holding exactly one H2 database file
     */
    public static String contents(Path zip) {
        try (FileSystem entries = FileSystems.newFileSystem(zip);
                Stream<Path> all = Files.list(entries.getPath("/"))) {
            List<String> files = all.map(entry -> entry.getFileName().toString())
                    .filter(name -> !name.equals(PASSWORD_ENTRY))
                    .toList();
            if (files.size() != 1
                    || !files.get(0).endsWith(".mv.db")
                    || Files.isDirectory(entries.getPath(files.get(0)))) {
                throw new NotABackupException(
                        "it holds " + files.size() + " file(s), not one H2 database file" + " (name.mv.db)");
            }
            return files.get(0);
        } catch (IOException | ProviderNotFoundException e) {
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

    /** Reads a database about to be restored, before anything is replaced; throws to refuse it. */
    @FunctionalInterface
    public interface Check<T> {
        T read(Connection restoring) throws SQLException;
    }

    /** What {@link Check} read of a restored database, and where the file it replaced was kept, if there was one. */
    public record Restored<T>(T read, Optional<Path> replaced) {}

    /**
     * Puts the database of {@code zip} in place of {@code target}'s file, while no process holds
     * it: the file is unpacked beside it, opened read-only for {@code check}, and renamed into
     * place; the owner's password kept here is set on it (or the backup's is kept, where none is).
     * An unfinished rebuild of the old file ({@link H2CrashRecovery}'s dump) is dropped: it would
     * overwrite the restored file.
     *
     * @return what {@code check} read, and where the file it replaced was kept ({@code nqueens.replaced-<time>.mv.db})
     * @throws HeldException if another process has the file open
     */
    public static <T> Restored<T> restore(Path zip, H2File target, String user, String password, Check<T> check)
            throws IOException, SQLException {
        Files.createDirectories(target.path().getParent());
        Path restoring = Path.of(target.path() + "-restoring");
        Path unpacked = Path.of(restoring + ".mv.db");
        // H2 locks a file it opens: a lock this process (which opened nothing) cannot take means another holds it.
        try (FileChannel current = Files.exists(target.dataFile())
                        ? FileChannel.open(target.dataFile(), StandardOpenOption.READ, StandardOpenOption.WRITE)
                        : null;
                FileLock lock = current == null ? null : current.tryLock()) {
            if (current != null && lock == null) {
                throw new HeldException();
            }
            String itsPassword;
            T read;
            try (FileSystem entries = FileSystems.newFileSystem(zip)) {
                Path kept = entries.getPath(PASSWORD_ENTRY);
                itsPassword = Files.exists(kept)
                        ? Files.readString(kept, StandardCharsets.US_ASCII).strip()
                        : "";
                Files.copy(entries.getPath(contents(zip)), unpacked, StandardCopyOption.REPLACE_EXISTING);
            }
            force(unpacked);
            try (Connection connection = OwnerPassword.connect(
                    target.url(restoring) + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE", user, password, itsPassword, "")) {
                read = check.read(connection);
            }
            Optional<Path> replaced = Optional.empty();
            if (current != null) {
                replaced = Optional.of(
                        Path.of(target.path() + ".replaced-" + STAMP.format(LocalDateTime.now()) + ".mv.db"));
                Files.move(target.dataFile(), replaced.get(), StandardCopyOption.ATOMIC_MOVE);
            }
            Files.deleteIfExists(Path.of(target.path() + ".recovery.sql.gz"));
            Files.move(unpacked, target.dataFile(), StandardCopyOption.ATOMIC_MOVE);
            if (!password.isEmpty()) {
                OwnerPassword.adopt(target, user, password, itsPassword, "");
            } else if (!itsPassword.isEmpty()) {
                OwnerPassword.keep(target, itsPassword);
            }
            return new Restored<>(read, replaced);
        } finally {
            Files.deleteIfExists(unpacked);
            Files.deleteIfExists(Path.of(restoring + ".trace.db"));
        }
    }

    /** Writes a file's (or a folder's entries') buffers to the disk. */
    static void force(Path file) throws IOException {
        try (FileChannel channel =
                FileChannel.open(file, Files.isDirectory(file) ? StandardOpenOption.READ : StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }
}
