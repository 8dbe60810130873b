package dev.nqueens.cli;

import dev.nqueens.failure.BusyException;
import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.Failure;
import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.h2.H2Backup;
import dev.nqueens.h2.H2File;
import dev.nqueens.h2.HeldFile;
import dev.nqueens.query.DatabaseContents;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.store.Database;
import dev.nqueens.store.SchemaCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code restore FILE.zip}: puts a backup made by {@code backup} in place of the embedded H2 file,
 * only while no process holds the file; an existing file is kept beside it.
 */
@Command(
        name = "restore",
        header = "Put a backup made by backup in place of the H2 file.",
        description = "Only while no process holds the file (stop serve, schedule or db-server first). An existing"
                + " database needs --replace and is kept beside it. Check the result with verify; the next run"
                + " exports the reports again. PostgreSQL: use pg_restore or psql.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ./nqueens restore backups/nqueens.zip              (a new installation)",
            "  ./nqueens restore backups/nqueens.zip --replace    (over the database)"
        })
final class RestoreCommand extends Subcommand {

    /** The settings only: it replaces the file while nothing has it open. */
    static final Needs NEEDS = Needs.NOTHING;

    @Parameters(index = "0", paramLabel = "FILE.zip", description = "A backup made by backup.")
    String file;

    @Option(
            names = "--replace",
            description = "Replace an existing database (kept as data/nqueens.replaced-TIME.mv.db).")
    boolean replace;

    @Override
    public Integer call() throws IOException, SQLException {
        Path backup = nqueens.launch()
                .console()
                .workingDirectory()
                .resolve(file)
                .toAbsolutePath()
                .normalize();
        if (!Files.isRegularFile(backup) || !Files.isReadable(backup)) {
            throw new InvalidInputException("invalid backup file '" + file + "': there is no readable file " + backup);
        }
        try {
            H2Backup.contents(backup);
        } catch (H2Backup.NotABackupException e) {
            throw notABackup(e);
        }
        try (Session session = nqueens.launch().open(NEEDS, Map.of())) {
            Database database = Database.of(session.environment(), session.settings());
            H2File h2 = BackupCommand.embeddedFile(database, "restore", "restore it with pg_restore or psql");
            String shown = database.shownUrl();
            HeldFile.holder(h2).ifPresent(holder -> {
                throw new BusyException("the database " + shown + " is in use by " + holder.name()
                        + "; restore only while nothing holds it: stop it first");
            });
            if (Files.exists(h2.dataFile()) && !replace) {
                throw new InvalidInputException("the database " + shown + " exists: --replace puts the backup in its"
                        + " place and keeps the current file beside it");
            }
            H2Backup.Restored<DatabaseContents> restored;
            try {
                restored = H2Backup.restore(
                        backup,
                        h2,
                        database.username(),
                        database.password(),
                        connection -> usableByThisBuild(DatabaseContents.read(connection)));
            } catch (H2Backup.HeldException e) {
                throw new BusyException("the database " + shown + " is in use by another process (a run, sql, show?);"
                        + " restore only while nothing holds it");
            } catch (DatabaseContents.NoSchemaException e) {
                throw notABackup(e);
            }
            report(
                    restored.read(),
                    restored.replaced(),
                    h2,
                    backup,
                    session.console().out());
            return ExitCode.OK;
        }
    }

    private InvalidInputException notABackup(RuntimeException e) {
        return new InvalidInputException(
                "invalid backup file '" + file + "': not a backup made by `nqueens backup`: " + e.getMessage());
    }

    /** A newer schema needs a newer build; an older one is migrated by the next run. */
    private static DatabaseContents usableByThisBuild(DatabaseContents restored) {
        if (restored.schemaVersion() > SchemaCheck.VERSION) {
            throw new Failure(
                    ExitCode.FAILED,
                    "the backup's schema is at version " + restored.schemaVersion()
                            + ", newer than this build of nqueens (version " + SchemaCheck.VERSION
                            + "): restore it with a"
                            + " newer build; nothing was changed");
        }
        return restored;
    }

    private static void report(
            DatabaseContents restored, Optional<Path> replaced, H2File h2, Path backup, PrintStream out) {
        out.printf(
                "Restored %s from %s: schema version %d, %s.%n",
                h2.dataFile(),
                backup,
                restored.schemaVersion(),
                restored.published().isEmpty()
                        ? "no size published"
                        : "published n = " + BoardSizes.of(restored.published()));
        replaced.ifPresent(old -> out.printf("The file it replaced is kept as %s.%n", old));
        restored.unfinishedRun()
                .ifPresent(run -> out.printf(
                        "Run %d was under way when the backup was taken: the"
                                + " next run rebuilds the file and resumes it.%n",
                        run));
        if (restored.schemaVersion() < SchemaCheck.VERSION) {
            out.printf(
                    "Its schema is older than this build's (version %d): the next run migrates it.%n",
                    SchemaCheck.VERSION);
        }
        out.println("Check it with `./nqueens verify`; the next run exports the reports again.");
    }
}
