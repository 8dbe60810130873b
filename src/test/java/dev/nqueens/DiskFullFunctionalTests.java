package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills while a size is stored or exported, on a real small filesystem (a tmpfs with a
 * size, mounted for the test): the run stops with one line naming the place to free (the H2 file,
 * the export folder) or quoting PostgreSQL's own error, exit 1, nothing half-published; once the
 * space is there (the filesystem grown), the next run ends exact and {@code verify} passes.
 * Mounting needs root: as another user these tests are skipped, saying so (CI runs as root).
 */
@Order(7) // middling: at the front after the outage class, so the last classes to start are short (see the pom)
class DiskFullFunctionalTests {

    private static final String ROOT_NEEDED = "mounting a small filesystem needs root";

    @TempDir
    Path work;

    private final List<Path> mounted = new ArrayList<>();

    @AfterEach
    void unmount() throws Exception {
        for (Path point : mounted) {
            new ProcessBuilder("umount", "-l", point.toString())
                    .inheritIO()
                    .start()
                    .waitFor();
        }
    }

    @Test
    void theH2FileFillingItsDiskStopsTheRunAndTheNextRunEndsExact() throws Exception {
        Path data = smallFilesystem(work.resolve("data"), "12m");

        NqueensProcess.Result full = NqueensProcess.run(work, "run", "--sizes", "14", "--store-all-up-to", "14");

        assertThat(full.exitCode()).as(full.out() + full.err()).isEqualTo(1);
        // Said by the run's outcome ("the run failed: ...") when a step met the full disk, or by the
        // command itself when the job repository could not even record the step's failure.
        // The wording README.md and docs/operations.md quote.
        assertThat(full.err().lines())
                .as(full.err())
                .singleElement()
                .asString()
                .matches("nqueens: (the run failed: )?no space left on the device of the H2 file "
                        + java.util.regex.Pattern.quote(
                                data.resolve("nqueens.mv.db") + "; once space is freed the next run resumes")
                        + ".*");

        grow(data, "200m");
        NqueensProcess.Result next = NqueensProcess.run(work, "run", "--sizes", "14", "--store-all-up-to", "14");

        assertThat(next.exitCode()).as(next.out() + next.err()).isZero();
        assertExact(Map.of());
    }

    @Test
    void theExportFolderFillingStopsTheRunAndTheNextRunExportsEverything() throws Exception {
        Path output = smallFilesystem(work.resolve("output"), "1m");

        NqueensProcess.Result full = NqueensProcess.run(work, "run", "--sizes", "1-12", "--store-all-up-to", "12");

        assertThat(full.exitCode()).as(full.out() + full.err()).isEqualTo(1);
        assertThat(full.err().lines()) // the wording docs/operations.md quotes
                .as(full.err())
                .singleElement()
                .asString()
                .startsWith("nqueens: the run failed: no space left on the device of the export folder " + output
                        + "; once space is freed the next run resumes");
        try (Stream<Path> files = Files.list(output)) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .as("no half-written file under its name")
                    .noneMatch(name -> name.endsWith(".partial"))
                    .doesNotContain("manifest.json");
        }

        grow(output, "50m");
        NqueensProcess.Result next = NqueensProcess.run(work, "run", "--sizes", "1-12", "--store-all-up-to", "12");

        assertThat(next.exitCode()).as(next.out() + next.err()).isZero();
        NqueensProcess.Result verify = NqueensProcess.run(work, "verify");
        assertThat(verify.exitCode()).as(verify.out()).isZero();
        assertThat(verify.out()).contains("export n=12             ok");
    }

    @Test
    @EnabledIfEnvironmentVariable(
            named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+",
            disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void thePostgresqlDiskFillingStopsTheRunWithTheServersWordsAndTheNextRunEndsExact() throws Exception {
        Map<String, String> environment = TestDatabases.postgresEnvironment("nqueens_disk_full_ft");
        Path space = smallFilesystem(work.resolve("tablespace"), "12m");
        // The server's account must reach the folder: the test's folders are its owner's alone.
        Files.setPosixFilePermissions(work, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        new ProcessBuilder("chown", "postgres", space.toString())
                .inheritIO()
                .start()
                .waitFor();
        // The database's tables go to the small filesystem; the server's own files (WAL, catalog) stay where they are.
        try (Connection maintenance = DriverManager.getConnection(System.getenv(TestDatabases.POSTGRES_URL_VARIABLE));
                Statement statement = maintenance.createStatement()) {
            statement.execute("DROP TABLESPACE IF EXISTS nqueens_disk_full_ft");
            statement.execute("CREATE TABLESPACE nqueens_disk_full_ft LOCATION '" + space + "'");
            statement.execute("ALTER DATABASE nqueens_disk_full_ft SET default_tablespace = nqueens_disk_full_ft");
        }
        try {
            NqueensProcess.Result full =
                    NqueensProcess.run(work, environment, "run", "--sizes", "14", "--store-all-up-to", "14");

            assertThat(full.exitCode()).as(full.out() + full.err()).isEqualTo(1);
            assertThat(full.err().lines()) // the wording docs/operations.md quotes, the server's error in it
                    .as(full.err())
                    .singleElement()
                    .asString()
                    .startsWith("nqueens: the run failed: the database server is out of disk space (ERROR: could not"
                            + " extend file")
                    .contains("No space left on device");

            grow(space, "200m");
            NqueensProcess.Result next =
                    NqueensProcess.run(work, environment, "run", "--sizes", "14", "--store-all-up-to", "14");

            assertThat(next.exitCode()).as(next.out() + next.err()).isZero();
            assertExact(environment);
        } finally {
            try (Connection maintenance =
                            DriverManager.getConnection(System.getenv(TestDatabases.POSTGRES_URL_VARIABLE));
                    Statement statement = maintenance.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS nqueens_disk_full_ft WITH (FORCE)");
                statement.execute("DROP TABLESPACE IF EXISTS nqueens_disk_full_ft");
            }
        }
    }

    /** Every solution of 14 once, its summary the published one, and verify content. */
    private void assertExact(Map<String, String> environment) throws Exception {
        try (Connection db = TestDatabases.open(environment, work)) {
            Reference.Counts expected = Reference.counts(14);
            assertThat(TestDatabases.count(db, "SELECT total_solutions FROM board_summary WHERE n = 14"))
                    .isEqualTo(expected.total());
            String solutions = TestDatabases.tablesOf(db, 14).solutions();
            assertThat(TestDatabases.count(db, "SELECT COUNT(DISTINCT placement) FROM " + solutions))
                    .isEqualTo(expected.total());
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM solution WHERE n = 14"))
                    .isEqualTo(expected.total());
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM stored_generation WHERE n = 14"))
                    .isEqualTo(1);
        }
        NqueensProcess.Result verify = NqueensProcess.run(work, environment, "verify");
        assertThat(verify.exitCode()).as(verify.out()).isZero();
    }

    /** A tmpfs of {@code size} on {@code point} (created), unmounted after the test. */
    private Path smallFilesystem(Path point, String size) throws IOException, InterruptedException {
        assumeTrue(
                "0"
                        .equals(new String(new ProcessBuilder("id", "-u")
                                        .start()
                                        .getInputStream()
                                        .readAllBytes())
                                .strip()),
                ROOT_NEEDED);
        Files.createDirectories(point);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", point.toString())
                .inheritIO()
                .start();
        assertThat(mount.waitFor()).as("mount a tmpfs on " + point).isZero();
        mounted.add(0, point);
        return point;
    }

    /** Makes room: the filesystem grown to {@code size}. */
    private static void grow(Path point, String size) throws IOException, InterruptedException {
        Process remount = new ProcessBuilder("mount", "-o", "remount,size=" + size, point.toString())
                .inheritIO()
                .start();
        assertThat(remount.waitFor()).isZero();
    }
}
