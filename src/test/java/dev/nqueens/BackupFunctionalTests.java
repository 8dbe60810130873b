package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code backup} while {@code serve} holds the H2 file (a process of its own, started through the
 * launcher), and {@code restore} of that backup into a fresh folder, where {@code verify} and the
 * known counts show that nothing was lost. The other commands run in this JVM.
 */
@ResourceLock(TestResources.TEST_JVM)
class BackupFunctionalTests {

    @TempDir
    Path original;

    @TempDir
    Path fresh;

    @TempDir
    Path backups;

    @Test
    void aBackupTakenWhileServeHoldsTheFileRestoresWithNothingLost() throws Exception {
        NqueensProcess.Result run = InProcess.run(
                original, "run", "--sizes", "1-10", "--store-all-up-to", "8", "--store-fundamental-up-to", "9");
        assertThat(run.exitCode()).as(run.err()).isZero();
        Files.createDirectories(original.resolve("config"));
        Files.writeString(original.resolve("config/application.yml"), "nqueens:\n  schedule:\n    enabled: false\n");
        Path zip = backups.resolve("nqueens.zip");

        NqueensProcess serve =
                NqueensProcess.start(original, "serve", "--port", String.valueOf(ServedResults.freePort()));
        try {
            serve.awaitLine(line -> line.startsWith("Serving http://"), Duration.ofMinutes(3));
            assertThat(Files.readString(original.resolve("data/nqueens.holder")))
                    .contains("tcp-port=");
            String database = ServedResults.contents(original);

            NqueensProcess.Result backup = InProcess.run(original, "backup", zip.toString());
            assertThat(backup.exitCode()).as(backup.err()).isZero();
            assertThat(backup.err()).isEmpty();
            // The file, the zip, and the holder that took the backup with its pid.
            assertThat(backup.out())
                    .contains(
                            original.resolve("data/nqueens.mv.db").toString(),
                            zip.toString(),
                            "`nqueens serve` (pid " + serve.pid() + ")");
            assertThat(ServedResults.contents(original)).isEqualTo(database);
            assertThat(Files.getPosixFilePermissions(zip))
                    .as("it holds the owner's password")
                    .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));

            for (String[] refused : List.of(
                    new String[] {"restore", zip.toString(), "--replace"},
                    new String[] {"prune", "--older-than", "1d"})) {
                NqueensProcess.Result result = InProcess.run(original, refused);
                assertThat(result.exitCode())
                        .as(String.join(" ", refused) + ": " + result.err())
                        .isEqualTo(3);
                assertThat(result.err()).contains("is in use by `nqueens serve` (pid " + serve.pid());
                assertThat(result.err().lines()).hasSize(1);
            }
        } finally {
            assertThat(serve.terminate().exitCode()).isIn(0, 143);
        }
        try (Stream<Path> data = Files.list(original.resolve("data"))) {
            assertThat(data.map(path -> path.getFileName().toString()))
                    .as("no marker, no socket left")
                    .noneMatch(name -> name.endsWith(".holder") || name.endsWith(".sock"));
        }
        NqueensProcess.Result itself =
                InProcess.run(original, "backup", backups.resolve("alone.zip").toString());
        assertThat(itself.exitCode()).as(itself.err()).isZero();
        assertThat(itself.out()).doesNotContain("taken by");

        NqueensProcess.Result restore = InProcess.run(fresh, "restore", zip.toString());
        assertThat(restore.exitCode()).as(restore.err()).isZero();
        assertThat(restore.out()) // the wording docs/h2.md quotes
                .startsWith("Restored " + fresh.resolve("data/nqueens.mv.db") + " from " + zip + ": schema version "
                        + dev.nqueens.store.SchemaCheck.VERSION + ", published n = 1-10.\n");
        copy(original.resolve("output"), fresh.resolve("output"));
        NqueensProcess.Result verify = InProcess.run(fresh, "verify");
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertKnownCounts(fresh);

        NqueensProcess.Result over = InProcess.run(fresh, "restore", zip.toString());
        assertThat(over.exitCode()).isEqualTo(2);
        assertThat(over.err())
                .startsWith("nqueens: ")
                .contains("jdbc:h2:file:" + fresh.resolve("data/nqueens"), "--replace");
        assertThat(over.err().lines()).hasSize(1);
        NqueensProcess.Result replaced =
                InProcess.run(fresh, "restore", backups.resolve("alone.zip").toString(), "--replace");
        assertThat(replaced.exitCode()).as(replaced.err()).isZero();
        assertThat(replaced.out()) // the wording docs/h2.md quotes
                .containsPattern(
                        "The file it replaced is kept as .*/data/nqueens\\.replaced-\\d{8}-\\d{6}\\.mv\\.db\\.");
        assertKnownCounts(fresh);

        Files.writeString(backups.resolve("notes.zip"), "not a zip");
        NqueensProcess.Result notABackup =
                InProcess.run(fresh, "restore", backups.resolve("notes.zip").toString());
        assertThat(notABackup.exitCode()).isEqualTo(2);
        assertThat(notABackup.err()).startsWith("nqueens: ").contains("'" + backups.resolve("notes.zip") + "'");
        assertThat(notABackup.err().lines()).hasSize(1);
    }

    /**
     * The README's {@code ./nqueens backup backups/nqueens.zip} on a fresh install: the folders it
     * names are created, readable by the owner alone (the zip holds the owner's password), and the
     * backup restores. A name that cannot become a folder, or a database that does not exist yet,
     * is refused before any folder is made.
     */
    @Test
    void aBackupCreatesTheFoldersOfItsFileOwnerOnlyAndRestores() throws Exception {
        NqueensProcess.Result nothingYet = InProcess.run(original, "backup", "backups/nqueens.zip");
        assertThat(nothingYet.exitCode()).as(nothingYet.err()).isEqualTo(4);
        assertThat(original.resolve("backups"))
                .as("no folder made for a backup not taken")
                .doesNotExist();

        NqueensProcess.Result run = InProcess.run(original, "run", "--sizes", "1-8", "--store-all-up-to", "8");
        assertThat(run.exitCode()).as(run.err()).isZero();
        Files.writeString(original.resolve("notes"), "not a folder");
        NqueensProcess.Result underAFile = InProcess.run(original, "backup", "notes/2026/nqueens.zip");
        assertThat(underAFile.exitCode()).isEqualTo(2);
        // The file refused, and the path in its way (the file notes, not a folder under it).
        assertThat(underAFile.err())
                .startsWith("nqueens: ")
                .contains("'notes/2026/nqueens.zip'", original.resolve("notes").toString())
                .doesNotContain(original.resolve("notes/2026").toString());
        assertThat(underAFile.err().lines()).hasSize(1);

        for (String file : List.of("backups/nqueens.zip", "backups/2026/12/nqueens.zip")) {
            NqueensProcess.Result backup = InProcess.run(original, "backup", file);
            assertThat(backup.exitCode()).as(backup.err()).isZero();
            assertThat(original.resolve(file)).isRegularFile();
        }
        for (String folder : List.of("backups", "backups/2026", "backups/2026/12")) {
            assertThat(Files.getPosixFilePermissions(original.resolve(folder)))
                    .as(folder)
                    .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        }

        NqueensProcess.Result restore = InProcess.run(
                fresh, "restore", original.resolve("backups/nqueens.zip").toString());
        assertThat(restore.exitCode()).as(restore.err()).isZero();
        NqueensProcess.Result eight = InProcess.run(
                fresh, "sql", "SELECT COUNT(*) AS solutions FROM solution WHERE n = 8", "--format", "csv");
        assertThat(eight.out()).isEqualTo("solutions\n92\n");
    }

    /** Every published size has its known counts, and the stored rows are all there. */
    private static void assertKnownCounts(Path folder) {
        NqueensProcess.Result counts = InProcess.run(
                folder,
                "sql",
                "SELECT n, total_solutions, fundamental_solutions,"
                        + " (SELECT COUNT(*) FROM solution s WHERE s.n = b.n), (SELECT COUNT(*) FROM fundamental_solution f"
                        + " WHERE f.n = b.n) FROM board_summary b ORDER BY n",
                "--format",
                "csv");
        assertThat(counts.exitCode()).as(counts.err()).isZero();
        List<String> rows = counts.out().lines().skip(1).toList();
        assertThat(rows).hasSize(10);
        for (int n = 1; n <= 10; n++) {
            Reference.Counts known = Reference.counts(n);
            assertThat(rows.get(n - 1))
                    .isEqualTo(n + "," + known.total() + "," + known.fundamental() + "," + (n <= 8 ? known.total() : 0)
                            + "," + (n <= 9 ? known.fundamental() : 0));
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }
}
