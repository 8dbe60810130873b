package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nightly run as an unattended operator's machine lives it, with the real jar in separate
 * processes: killed with SIGKILL while storing and while exporting, stopped with SIGTERM, started
 * twice at once, and damaged afterwards. Each time the database and the reports must end exactly
 * right, with nothing missing, nothing duplicated and no partial file under a final name.
 *
 * <p>The SIGKILL test runs on the embedded H2 and, when one is configured, on PostgreSQL (the kill
 * during the export, which checks the files, on H2 alone). H2 can reopen a file with part of a
 * transaction killed mid-way: the product rebuilds the file and cuts the stray rows off before
 * resuming (see H2CrashRecovery), so on H2 only the end result is checked. SIGTERM and concurrent
 * starts run on H2.
 */
@Order(Integer.MAX_VALUE) // one of the longest classes: last in the list, so started first (see the pom)
class ReliabilityFunctionalTests {

    private static final Duration LONG = Duration.ofMinutes(4);
    private static final String SIZES = "12-14";

    @TempDir
    Path work;

    @BeforeEach
    void smallChunksAndFrequentProgress() throws IOException {
        Files.createDirectories(work.resolve("config"));
        Files.writeString(work.resolve("config/application.yml"), """
                nqueens:
                  chunk-size: 500
                  progress-interval: 1s
                  storage:
                    all-up-to: 14
                    fundamental-up-to: 15
                """);
    }

    private Map<String, String> environment = Map.of();

    @Test
    @EnabledIfEnvironmentVariable(
            named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+",
            disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void killedWhileStoringOrExportingOnPostgresItResumesAndEndsExactlyRight() throws Exception {
        environment = TestDatabases.postgresEnvironment("nqueens_kill_ft");
        killedWhileStoringOrExportingItResumesAndEndsExactlyRight(true);
    }

    @Test
    void killedWhileStoringOrExportingOnTheEmbeddedH2ItIsRebuiltResumesAndEndsExactlyRight() throws Exception {
        killedWhileStoringOrExportingItResumesAndEndsExactlyRight(false);
    }

    /**
     * @param postgres PostgreSQL keeps exactly the committed chunks; H2 may keep part of the killed
     *     one (the product rebuilds the file and cuts the strays off), so only the end result is checked there
     */
    private void killedWhileStoringOrExportingItResumesAndEndsExactlyRight(boolean postgres) throws Exception {
        NqueensProcess first = NqueensProcess.start(work, environment, "run", "--sizes", SIZES);
        first.awaitLine(line -> NqueensProcess.showsProgress(line, 14), LONG);
        assertThat(first.kill().exitCode()).isEqualTo(137);

        // Kill point 1, in the middle of storing n = 14: a dense prefix, no summary, nothing twice.
        if (postgres) {
            try (Connection db = open()) {
                TestDatabases.Tables building = TestDatabases.tablesOf(db, 14);
                long stored = count(db, "SELECT COUNT(*) FROM " + building.solutions());
                assertThat(stored).isPositive().isLessThan(365_596);
                assertThat(count(db, "SELECT MAX(ordinal) FROM " + building.solutions()))
                        .isEqualTo(stored);
                assertThat(count(db, "SELECT solutions_stored FROM building_generation WHERE n = 14"))
                        .as("the checkpoint commits with its rows")
                        .isEqualTo(stored);
                assertThat(stored % 500).as("whole chunks only").isZero();
                assertThat(count(db, "SELECT COUNT(*) FROM board_summary WHERE n = 14"))
                        .isZero();
                assertThat(count(db, "SELECT COUNT(*) FROM " + building.classes()))
                        .isEqualTo(count(db, "SELECT MAX(class_ordinal) FROM " + building.solutions()))
                        .isEqualTo(count(db, "SELECT classes_stored FROM building_generation WHERE n = 14"));
                assertThat(count(db, "SELECT COUNT(*) FROM solution WHERE n = 14"))
                        .as("out of sight until published")
                        .isZero();
            }
        }

        NqueensProcess.Result resumed = NqueensProcess.run(work, environment, "run", "--sizes", SIZES);
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("Restarted the unfinished run of the same sizes");
        if (!postgres) {
            assertThat(resumed.out())
                    .contains("ended without closing the database (killed?); rebuilding")
                    .contains("; resuming");
            try (Stream<Path> files = Files.list(work.resolve("data"))) {
                assertThat(files.map(file -> file.getFileName().toString()))
                        .contains("nqueens.mv.db")
                        .noneMatch(name -> name.contains("recovery") || name.contains("rebuilt"));
            }
        }
        assertExactlyTheKnownValues(12, 14);
        assertThat(NqueensProcess.run(work, environment, "verify").exitCode()).isZero();

        // Kill point 2, while n = 14 recomputed with --force has its indexes built, before it is published.
        NqueensProcess indexing = NqueensProcess.start(work, environment, "run", "--sizes", "14", "--force");
        indexing.awaitLine(line -> line.contains("n=14: all 365,596 solutions stored after"), LONG);
        assertThat(indexing.kill().exitCode()).isEqualTo(137);

        // Kill point 3, right after the run that resumes it publishes n = 14: the generation it replaced is
        // being dropped. (H2 writes what a transaction committed within its write delay, half a second: the
        // publication itself may be lost with the process, and then it is done again.) A run killed twice
        // is resumed as once.
        NqueensProcess publishing = NqueensProcess.start(work, environment, "run", "--sizes", "14", "--force");
        publishing.awaitLine(line -> line.contains("n=14: published after"), LONG);
        assertThat(publishing.kill().exitCode()).isEqualTo(137);
        NqueensProcess.Result afterPublishKill =
                NqueensProcess.run(work, environment, "run", "--sizes", "14", "--force");
        assertThat(afterPublishKill.exitCode()).as(afterPublishKill.err()).isZero();
        assertThat(afterPublishKill.out()).contains("Restarted the unfinished run of the same sizes");
        assertExactlyTheKnownValues(12, 14);
        assertThat(NqueensProcess.run(work, environment, "verify").exitCode()).isZero();

        // Kill point 4, in the middle of the export (every size is stored, so the run only exports; with a
        // manifest of other rows, for the folder and for each size, it cannot tell the files are up to
        // date, so it writes them all). What it checks is the files', whichever database the rows come
        // from: on the embedded H2 alone (every run on PostgreSQL exports through the same code).
        if (!postgres) {
            killedWhileExportingTheFilesStayWholeAndTheNextRunWritesThem();
        }

        // Damage: verify names a corrupted export file and a corrupted row, and says so in its exit code.
        Files.writeString(work.resolve("output/fundamental-n12.csv"), "x", java.nio.file.StandardOpenOption.APPEND);
        try (Connection db = open();
                Statement statement = db.createStatement()) {
            statement.executeUpdate("UPDATE " + TestDatabases.tablesOf(db, 12).solutions()
                    + " SET placement = '1 2 3 4 5 6 7 8 9 10 11 12' WHERE ordinal = 7");
        }
        NqueensProcess.Result damaged = NqueensProcess.run(work, environment, "verify");
        assertThat(damaged.exitCode()).isEqualTo(1);
        assertThat(damaged.out())
                .contains("fundamental-n12.csv")
                .contains("checks FAILED")
                .contains("n=12 ordinal 7: '1 2 3 4 5 6 7 8 9 10 11 12' is not a solution");
    }

    @Test
    void aSecondRunIsRefusedAndSigtermStopsAtAChunkBoundaryToBeResumed() throws Exception {
        // n = 14 with every solution stored in chunks of 500 keeps the run busy for some seconds after its
        // first progress line: long enough to start a second run and then stop the first.
        NqueensProcess first = NqueensProcess.start(work, "run", "--sizes", "12-14");
        first.awaitLine(line -> NqueensProcess.showsProgress(line, 14), LONG);

        NqueensProcess.Result second = NqueensProcess.run(work, "run", "--sizes", "12");
        assertThat(second.exitCode()).isEqualTo(3);
        assertThat(second.err())
                .isEqualTo("nqueens: the database jdbc:h2:file:./data/nqueens is in use by `nqueens run`" + " (pid "
                        + first.pid() + "); one run at a time\n");
        // The reading commands read through the run's H2 server meanwhile, with the read-only login.
        NqueensProcess.Result read = NqueensProcess.run(work, "sql", "SELECT COUNT(*) AS published FROM board_summary");
        assertThat(read.exitCode()).as(read.err()).isZero();
        assertThat(read.out()).startsWith("published\n---------\n").endsWith("(1 row)\n");
        assertThat(first.isAlive()).isTrue();

        NqueensProcess.Result stopped = first.terminate();
        assertThat(stopped.exitCode()).isEqualTo(143);
        assertThat(stopped.err())
                .contains("nqueens: stopping at the next chunk boundary; the next run resumes")
                .contains("nqueens: the run stopped; the next run resumes it");
        try (Connection db = open()) {
            assertThat(string(db, "SELECT status FROM batch_job_execution ORDER BY job_execution_id DESC LIMIT 1"))
                    .isEqualTo("STOPPED");
            String solutions = TestDatabases.tablesOf(db, 14).solutions();
            long stored = count(db, "SELECT COUNT(*) FROM " + solutions);
            assertThat(count(db, "SELECT MAX(ordinal) FROM " + solutions)).isEqualTo(stored);
            assertThat(stored).isPositive().isLessThan(365_596);
            assertThat(stored % 500).as("stopped at a chunk boundary").isZero();
        }

        NqueensProcess.Result resumed = NqueensProcess.run(work, "run", "--sizes", "12-14");
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("Restarted the unfinished run of the same sizes");
        assertExactlyTheKnownValues(12, 14);
    }

    /** Kills a run in the middle of the export it does on a database where every size is stored. */
    private void killedWhileExportingTheFilesStayWholeAndTheNextRunWritesThem() throws Exception {
        Path manifest = work.resolve("output/manifest.json");
        String exported = Files.readString(manifest);
        java.util.regex.Matcher sizes = java.util.regex.Pattern.compile("\"size_versions\"\\s*:\\s*\\{[^}]*}")
                .matcher(exported);
        assertThat(sizes.find())
                .as("the manifest names the row each size's files were exported from")
                .isTrue();
        String stale = exported.substring(0, sizes.start())
                + sizes.group().replaceAll("[0-9a-f]{64}", "stale")
                + exported.substring(sizes.end());
        stale = stale.replaceFirst("(\"summary_version\"\\s*:\\s*\")[0-9a-f]+\"", "$1stale\"");
        assertThat(stale)
                .as("the manifest names the rows it was exported from")
                .isNotEqualTo(exported)
                .doesNotContainPattern("\"summary_version\"\\s*:\\s*\"[0-9a-f]{64}\"");
        Files.writeString(manifest, stale);
        NqueensProcess exporting = NqueensProcess.start(work, environment, "run", "--sizes", SIZES);
        Path partial = awaitPartialFile(exporting);
        assertThat(exporting.kill().exitCode()).isEqualTo(137);
        assertThat(partial.getFileName().toString()).startsWith(".").endsWith(".partial");
        NqueensProcess.Result afterExportKill = NqueensProcess.run(work, environment, "verify");
        assertThat(afterExportKill.out())
                .as("final names hold complete files")
                .contains("export manifest         ok")
                .doesNotContain("differs")
                .doesNotContain("bytes, the manifest says")
                .doesNotContain("missing");
        boolean leftover;
        try (Stream<Path> files = Files.list(work.resolve("output"))) {
            leftover = files.anyMatch(file -> file.getFileName().toString().endsWith(".partial"));
        }
        if (leftover) {
            assertThat(afterExportKill.out()).contains("export temporary files  FAILED  warning:");
        }

        NqueensProcess.Result reexport = NqueensProcess.run(work, environment, "run", "--sizes", SIZES);
        assertThat(reexport.exitCode()).isZero();
        assertThat(reexport.out()).contains("Every size was already stored; the reports are up to date.");
        assertThat(NqueensProcess.run(work, environment, "verify").exitCode()).isZero();
        try (Stream<Path> files = Files.list(work.resolve("output"))) {
            assertThat(files.map(Path::toString)).noneMatch(name -> name.endsWith(".partial"));
        }
    }

    private void assertExactlyTheKnownValues(int from, int to) throws SQLException {
        try (Connection db = open()) {
            for (int n = from; n <= to; n++) {
                Reference.Counts expected = Reference.counts(n);
                assertThat(count(db, "SELECT total_solutions FROM board_summary WHERE n = " + n))
                        .isEqualTo(expected.total());
                String solutions = TestDatabases.tablesOf(db, n).solutions();
                assertThat(count(db, "SELECT COUNT(*) FROM " + solutions)).isEqualTo(expected.total());
                assertThat(count(db, "SELECT COUNT(DISTINCT placement) FROM " + solutions))
                        .isEqualTo(expected.total());
                assertThat(count(db, "SELECT MAX(ordinal) FROM " + solutions)).isEqualTo(expected.total());
                assertThat(count(db, "SELECT COUNT(*) FROM stored_generation WHERE n = " + n))
                        .as("one generation")
                        .isEqualTo(1);
                assertThat(count(db, "SELECT COUNT(*) FROM fundamental_solution WHERE n = " + n))
                        .isEqualTo(expected.fundamental());
                assertThat(count(db, "SELECT COUNT(*) FROM solution WHERE n = " + n))
                        .isEqualTo(expected.total());
            }
        }
    }

    /**
     * Waits until an export's temporary file appears in the output folder (or the run ends). It lives
     * for a moment only: the folder is looked at every few milliseconds.
     */
    private Path awaitPartialFile(NqueensProcess process) {
        Path output = work.resolve("output");
        Optional<Path> found = await("an export in progress")
                .atMost(LONG)
                .pollInSameThread()
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(2))
                .until(() -> partialFile(output), file -> file.isPresent() || !process.isAlive());
        assertThat(found).as("an export in progress").isPresent();
        return found.get();
    }

    /** An export's temporary file in {@code output}, if there is one. */
    private static Optional<Path> partialFile(Path output) throws IOException {
        if (!Files.isDirectory(output)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(output)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".partial"))
                    .findFirst();
        }
    }

    private Connection open() throws SQLException {
        return TestDatabases.open(environment, work);
    }

    private static long count(Connection db, String sql) throws SQLException {
        return TestDatabases.count(db, sql);
    }

    private static String string(Connection db, String sql) throws SQLException {
        try (Statement statement = db.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getString(1);
        }
    }
}
