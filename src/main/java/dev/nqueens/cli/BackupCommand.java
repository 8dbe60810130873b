package dev.nqueens.cli;

import dev.nqueens.failure.BusyException;
import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.Failure;
import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.failure.UnavailableException;
import dev.nqueens.h2.H2Backup;
import dev.nqueens.h2.H2File;
import dev.nqueens.h2.HeldFile;
import dev.nqueens.settings.Durations;
import dev.nqueens.store.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code backup FILE.zip}: a consistent copy of the embedded H2 file, also while {@code run},
 * {@code schedule}, {@code serve} or {@code db-server} holds it: then through the holder's H2 TCP
 * server, with the owner's login; otherwise this command opens the file read-only and takes it itself.
 */
@Command(
        name = "backup",
        header = "Back up the H2 file to a zip file, also while it is in use.",
        description = "A consistent copy made with H2's BACKUP TO: through the command that holds the file (run,"
                + " schedule, serve, db-server) if one does, else with the file opened read-only. PostgreSQL: use"
                + " pg_dump. Put it back with restore.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./nqueens backup backups/nqueens.zip",
            "  ./nqueens backup \"backups/nqueens-$(date +%%F).zip\"     (from cron)"
        })
final class BackupCommand extends Subcommand {

    /** The settings only: it asks the file's holder, or opens the file itself. */
    static final Needs NEEDS = Needs.NOTHING;

    @Parameters(
            index = "0",
            paramLabel = "FILE.zip",
            description = "The backup to write (an existing one is replaced; missing folders are created, owner-only).")
    String file;

    @Override
    public Integer call() throws IOException {
        Path target = target(nqueens.launch().console().workingDirectory(), file);
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            Database database = Database.of(session.environment(), session.settings());
            H2File h2 = embeddedFile(database, "backup", "back it up with pg_dump (docs/operations.md)");
            long started = System.nanoTime();
            Optional<HeldFile.Holder> holder = HeldFile.holder(h2);
            if (holder.isPresent()) {
                throughHolder(database, h2, holder.get(), target);
            } else {
                itself(database, h2, target);
            }
            session.console()
                    .out()
                    .printf(
                            "Backed up %s (%s) to %s (%s) in %s%s.%n",
                            h2.dataFile(),
                            megabytes(Files.size(h2.dataFile())),
                            target,
                            megabytes(Files.size(target)),
                            Durations.format((System.nanoTime() - started) / 1e9),
                            holder.map(held -> ", taken by " + held.name() + ", which holds it")
                                    .orElse(""));
            return ExitCode.OK;
        }
    }

    /**
     * FILE.zip, checked before anything is opened: a zip file's name whose folder exists and is
     * writable, or can be created ({@link #createFolders} creates it once the database is found).
     */
    static Path target(Path workingDirectory, String file) {
        Path target = workingDirectory.resolve(file).toAbsolutePath().normalize();
        if (!target.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".zip")) {
            throw new InvalidInputException("invalid backup file '" + file + "': a zip file's name, ending in .zip");
        }
        if (Files.isDirectory(target)) {
            throw new InvalidInputException("invalid backup file '" + file + "': it is a folder");
        }
        Path existing = target.getParent();
        while (!Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (!Files.isDirectory(existing)) {
            throw new InvalidInputException("invalid backup file '" + file + "': " + existing + " is not a folder");
        }
        if (!Files.isWritable(existing)) {
            throw new InvalidInputException(
                    "invalid backup file '" + file + "': folder " + existing + " is not writable");
        }
        return target;
    }

    /**
     * Creates the missing folders of {@code target}, readable by the owner alone: the backup holds
     * the owner's password. Folders that exist are left as they are.
     */
    static void createFolders(Path target) throws IOException {
        Path folder = target.getParent();
        if (Files.isDirectory(folder)) {
            return;
        }
        if (folder.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createDirectories(
                    folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(folder);
        }
    }

    /** The embedded H2 file the settings name; another database is bad input for {@code command}. */
    static H2File embeddedFile(Database database, String command, String instead) {
        return database.h2File()
                .orElseThrow(() -> new InvalidInputException(command + " works on the embedded H2"
                        + " file; the configured database " + database.shownUrl() + " is not one: " + instead));
    }

    /** Through the holder's H2 TCP server, with the owner's login: {@code BACKUP TO} runs in the holder. */
    private static void throughHolder(Database database, H2File h2, HeldFile.Holder holder, Path target) {
        try (Connection connection =
                DriverManager.getConnection(holder.url(h2), database.username(), database.password())) {
            createFolders(target);
            H2Backup.take(connection, target, database.password());
        } catch (SQLException | IOException e) {
            throw new Failure(
                    ExitCode.FAILED,
                    "the backup through " + holder.name() + ", which holds the database " + database.shownUrl()
                            + ", failed: " + Failure.rootMessage(e));
        }
    }

    private static void itself(Database database, H2File h2, Path target) throws IOException {
        if (!Files.exists(h2.dataFile())) {
            throw new UnavailableException(
                    "the database " + database.shownUrl() + " does not exist yet: `./nqueens" + " run` creates it");
        }
        SingleConnectionDataSource readOnly = database.readingAsOwner().dataSource();
        try (Connection connection = readOnly.getConnection()) {
            createFolders(target);
            H2Backup.take(connection, target, database.password());
        } catch (SQLException e) {
            if (H2File.heldElsewhere(e)) {
                throw new BusyException("the database " + database.shownUrl() + " is in use by another process (a"
                        + " reading command?): try again when it has ended");
            }
            throw new Failure(ExitCode.FAILED, "the backup failed: " + Failure.rootMessage(e));
        } finally {
            readOnly.destroy();
        }
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
