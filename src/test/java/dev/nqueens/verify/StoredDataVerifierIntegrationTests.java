package dev.nqueens.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.nqueens.Application;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.job.RunRequest;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StorageLimits;
import dev.nqueens.verify.VerificationReport.Check;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.batch.core.BatchStatus;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.annotation.Transactional;

/**
 * The verifier on a fresh H2 file database holding the job's run of n = 1..9 and its exports:
 * everything passes, then each deliberate damage fails exactly the check that names it. Damage to
 * rows is rolled back with the test's transaction; damage to files is undone in {@code finally}.
 */
@ResourceLock(TestResources.TEST_JVM)
@SpringBootTest(
        classes = Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {"nqueens.threads=2", "logging.file.name="})
class StoredDataVerifierIntegrationTests {

    /** Per size 5 checks; export manifest, summary, one per size, unlisted files and temporary files. */
    private static final int CHECKS = 9 * 5 + 1 + 1 + 9 + 1 + 1;

    @TempDir
    static Path work;

    @DynamicPropertySource
    static void freshDatabase(DynamicPropertyRegistry registry) {
        TestDatabases.useH2(registry, work);
        registry.add("nqueens.output-dir", () -> work.resolve("output").toString());
    }

    @BeforeAll
    static void solveOneToNine(@Autowired NightlyRun nightlyRun) {
        RunRequest everySolution =
                new RunRequest(BoardSizes.parse("1-9"), new StorageLimits(13, 15), false, LocalDateTime.now());
        assertThat(nightlyRun.run(everySolution).status()).isEqualTo(BatchStatus.COMPLETED);
    }

    @Autowired
    StoredDataVerifier verifier;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void everythingTheJobStoredAndExportedPasses() {
        VerificationReport report = verify();

        assertThat(report.allPassed()).as(report.render()).isTrue();
        assertThat(report.checks()).hasSize(CHECKS);
        assertThat(report.checks())
                .filteredOn(check -> check.name().startsWith("n=8 "))
                .extracting(Check::detail)
                .containsExactly(
                        "92 solutions and 12 classes valid",
                        "92 solutions and 12 classes numbered densely in lexicographic order",
                        "12 classes: representatives, orbit sizes, symmetries and members right",
                        "92 solutions, 12 fundamental (rot90/rot180/asymmetric 0/1/11), as in board_summary",
                        "board_summary matches the published values");
        assertThat(report.checks())
                .filteredOn(check -> check.name().startsWith("export"))
                .extracting(Check::name, Check::detail)
                .startsWith(
                        tuple("export manifest", "manifest.json lists 38 files"),
                        tuple("export summary", "2 files match the manifest"),
                        tuple("export n=1", "4 files match the manifest"))
                .endsWith(
                        tuple("export n=9", "4 files match the manifest"),
                        tuple("export unlisted files", "no files beside the listed ones"),
                        tuple("export temporary files", "no temporary files"));
        assertThat(report.render()).endsWith("\nverify: all " + CHECKS + " checks passed\n");
    }

    @Test
    @Transactional
    void sizesStoredWithOnlyTheirClassesOrOnlyTheirCountsAreVerifiedAtTheirLevel() {
        // As the downgrades leave them: n = 7 without its solution table, n = 6 without any.
        jdbc.update("UPDATE stored_generation SET with_solutions = FALSE WHERE n = 7");
        jdbc.update("DELETE FROM stored_generation WHERE n = 6");
        jdbc.update("UPDATE board_summary SET stored = 'FUNDAMENTAL' WHERE n = 7");
        jdbc.update("UPDATE board_summary SET stored = 'COUNT', generation = NULL WHERE n = 6");

        VerificationReport report = verify();

        assertThat(report.allPassed()).as(report.render()).isTrue();
        assertThat(report.checks())
                .filteredOn(check -> check.name().matches("n=[67] .*|export (n=[67]|other.*)"))
                .extracting(Check::name, Check::detail)
                .containsExactly(
                        tuple(
                                "n=6 counts",
                                "4 solutions, 1 fundamental (rot90/rot180/asymmetric 0/1/0)" + " (only counts stored)"),
                        tuple("n=6 known values", "board_summary matches the published values"),
                        tuple("n=7 placements", "6 classes valid"),
                        tuple("n=7 order", "6 classes numbered densely in lexicographic order"),
                        tuple("n=7 classes", "6 classes: representatives, orbit sizes, symmetries right"),
                        tuple(
                                "n=7 counts",
                                "40 solutions, 6 fundamental (rot90/rot180/asymmetric 0/2/4),"
                                        + " as in board_summary"),
                        tuple("n=7 known values", "board_summary matches the published values"),
                        tuple("export n=7", "2 files match the manifest"),
                        tuple("export other files", "6 files match the manifest"));
        // n = 6 keeps only its counts (3 checks fewer).
        assertThat(report.checks()).hasSize(CHECKS - 3);
    }

    @Test
    @Transactional
    void aPlacementThatIsNoSolutionIsNamedWithItsSizeAndOrdinal() {
        jdbc.update("UPDATE " + solutions(8) + " SET placement = '1 2 3 4 5 6 7 8' WHERE ordinal = 17");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(
                        new Check("n=8 placements", false, "n=8 ordinal 17: '1 2 3 4 5 6 7 8' is not a solution"));
        assertThat(report.render())
                .endsWith("\nverify: 1 of " + CHECKS + " checks FAILED\n")
                .contains("n=8 placements" + " ".repeat("export temporary files".length() - "n=8 placements".length())
                        + "  FAILED  n=8 ordinal 17: '1 2 3 4 5 6 7 8' is not a solution\n");
    }

    @Test
    @Transactional
    void twoStoredSolutionsSwappedBreakTheOrder() {
        String tenth = placement(9, 10);
        String eleventh = placement(9, 11);
        jdbc.update("UPDATE " + solutions(9) + " SET ordinal = 1000 WHERE ordinal = 10");
        jdbc.update("UPDATE " + solutions(9) + " SET ordinal = 10 WHERE ordinal = 11");
        jdbc.update("UPDATE " + solutions(9) + " SET ordinal = 11 WHERE ordinal = 1000");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(new Check(
                        "n=9 order",
                        false,
                        "n=9 ordinal 11: '" + tenth + "' does not sort after ordinal 10 '" + eleventh + "'"));
    }

    @Test
    @Transactional
    void aWrongOrbitSizeIsFoundByTheReducerByCountingTheMembersAndInTheSymmetrySplit() {
        jdbc.update("UPDATE " + classes(8) + " SET orbit_size = 4 WHERE class_ordinal = 1");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(
                        new Check(
                                "n=8 classes",
                                false,
                                "n=8 class 1: orbit_size 4, but the class has 8 members (and 1 more)"),
                        new Check(
                                "n=8 counts",
                                false,
                                "n=8: stored 92 solutions, 12 fundamental (rot90/rot180/asymmetric"
                                        + " 0/2/10), but board_summary says 92 solutions, 12 fundamental (rot90/rot180/asymmetric"
                                        + " 0/1/11)"));
    }

    @Test
    @Transactional
    void aSolutionWithTheWrongOrbitSizeIsNamed() {
        jdbc.update("UPDATE " + solutions(8) + " SET orbit_size = 2 WHERE ordinal = 40");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(
                        new Check("n=8 classes", false, "n=8 ordinal 40: orbit_size 2, but its class has 8 members"));
    }

    @Test
    @Transactional
    void aSolutionFiledUnderAnotherClassIsNamed() {
        jdbc.update("UPDATE " + solutions(8) + " SET class_ordinal = 2 WHERE ordinal = 1");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(new Check(
                        "n=8 classes",
                        false,
                        "n=8 ordinal 1: class 2, but its representative '1 5 8 6 3 7 2 4' is class 1"));
    }

    @Test
    @Transactional
    void aDeletedSolutionBreaksDensityItsClassAndTheCounts() {
        jdbc.update("DELETE FROM " + solutions(8) + " WHERE ordinal = 50");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(
                        new Check("n=8 order", false, "n=8: ordinal 51 follows ordinal 49"),
                        new Check(
                                "n=8 classes", false, "n=8: 91 solutions stored, but the classes' orbits add up to 92"),
                        new Check(
                                "n=8 counts",
                                false,
                                "n=8: stored 91 solutions, 12 fundamental (rot90/rot180/asymmetric"
                                        + " 0/1/11), but board_summary says 92 solutions, 12 fundamental (rot90/rot180/asymmetric"
                                        + " 0/1/11)"));
    }

    @Test
    @Transactional
    void aQueenMovedInTheCellsOfAClassIsFound() {
        // Class 1 of n = 8 (1 5 8 6 3 7 2 4) has its row-2 queen in column 5 (e); the cells say 6 (f).
        jdbc.update("UPDATE " + classes(8) + " SET cells = 'afhfcgbd' WHERE class_ordinal = 1");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(new Check(
                        "n=8 classes", false, "n=8 class 1: cells 'afhfcgbd' are not the queens of '1 5 8 6 3 7 2 4'"));
    }

    @Test
    @Transactional
    void twoClassesSwappingTheirCellsAreFound() {
        jdbc.update("UPDATE " + classes(8) + " SET cells = CASE class_ordinal WHEN 1 THEN 'afhcgdbe' ELSE 'aehfcgbd'"
                + " END WHERE class_ordinal IN (1, 2)");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(new Check(
                        "n=8 classes",
                        false,
                        "n=8 class 1: cells 'afhcgdbe' are not the queens of '1 5 8 6 3 7 2 4' (and 1 more)"));
    }

    @Test
    @Transactional
    void aTransformThatDoesNotLeadFromTheRepresentativeToTheSolutionIsNamed() {
        jdbc.update("UPDATE " + solutions(8) + " SET transform = 1 WHERE ordinal = 1");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(
                        new Check(
                                "n=8 classes",
                                false,
                                "n=8 ordinal 1: transform 1 does not map the representative '1 5 8 6 3 7 2 4' onto the solution"));
    }

    @Test
    @Transactional
    void aSummaryThatDisagreesWithTheRowsAndThePublishedValuesIsNamed() {
        jdbc.update("UPDATE board_summary SET total_solutions = 344, fundamental_solutions = 45,"
                + " asymmetric_classes = 41 WHERE n = 9");
        jdbc.update("UPDATE board_summary SET total_solutions = 40, rot180_classes = 1, asymmetric_classes = 4"
                + " WHERE n = 7");

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(
                        new Check(
                                "n=7 counts",
                                false,
                                "n=7: board_summary splits 6 fundamental into 5 (rot90/rot180/asymmetric 0/1/4)"),
                        new Check(
                                "n=7 known values",
                                false,
                                "n=7: board_summary says 40 solutions, 6 fundamental"
                                        + " (rot90/rot180/asymmetric 0/1/4), but the known values are 40 solutions, 6 fundamental"
                                        + " (rot90/rot180/asymmetric 0/2/4)"),
                        new Check(
                                "n=9 counts",
                                false,
                                "n=9: stored 352 solutions, 46 fundamental (rot90/rot180/asymmetric"
                                        + " 0/4/42), but board_summary says 344 solutions, 45 fundamental (rot90/rot180/asymmetric"
                                        + " 0/4/41)"),
                        new Check(
                                "n=9 known values",
                                false,
                                "n=9: board_summary says 344 solutions, 45 fundamental"
                                        + " (rot90/rot180/asymmetric 0/4/41), but the known values are 352 solutions, 46 fundamental"
                                        + " (rot90/rot180/asymmetric 0/4/42)"));
    }

    @Test
    void anExportFileWithABytePastItsEndIsNamed() throws IOException {
        Path file = output().resolve("solutions-n08.csv");
        byte[] original = Files.readAllBytes(file);
        try {
            Files.write(file, new byte[] {'\n'}, StandardOpenOption.APPEND);

            VerificationReport report = verify();

            assertThat(report.failures())
                    .containsExactly(new Check(
                            "export n=8",
                            false,
                            "solutions-n08.csv: " + (original.length + 1) + " bytes, the manifest says "
                                    + original.length));
        } finally {
            Files.write(file, original);
        }
    }

    @Test
    void anExportFileWithAChangedByteFailsItsChecksum() throws IOException {
        Path file = output().resolve("summary.json");
        byte[] original = Files.readAllBytes(file);
        try {
            byte[] changed = original.clone();
            changed[changed.length - 2] ^= 1;
            Files.write(file, changed);

            VerificationReport report = verify();

            assertThat(report.failures())
                    .containsExactly(
                            new Check("export summary", false, "summary.json: SHA-256 differs from the manifest"));
        } finally {
            Files.write(file, original);
        }
    }

    @Test
    void aDeletedExportFileIsNamed() throws IOException {
        Path file = output().resolve("fundamental-n05.json");
        byte[] original = Files.readAllBytes(file);
        try {
            Files.delete(file);

            VerificationReport report = verify();

            assertThat(report.failures())
                    .containsExactly(new Check("export n=5", false, "fundamental-n05.json is listed but missing"));
        } finally {
            Files.write(file, original);
        }
    }

    @Test
    void aMissingManifestFailsAndSkipsTheFileChecks() throws IOException {
        Path manifest = output().resolve("manifest.json");
        Path aside = work.resolve("manifest.json.aside");
        Files.move(manifest, aside);
        try {
            VerificationReport report = verify();

            assertThat(report.checks()).hasSize(9 * 5 + 2);
            assertThat(report.failures())
                    .containsExactly(new Check("export manifest", false, "manifest.json is missing from " + output()));
        } finally {
            Files.move(aside, manifest);
        }
    }

    @Test
    void aLeftoverTemporaryFileFailsAsAWarning() throws IOException {
        Path leftover = output().resolve(".solutions-n08.json.partial");
        Files.writeString(leftover, "{\"n\":8,");
        try {
            VerificationReport report = verify();

            assertThat(report.failures())
                    .containsExactly(
                            new Check(
                                    "export temporary files",
                                    false,
                                    "warning: .solutions-n08.json.partial is left from an interrupted export (safe to delete)"));
        } finally {
            Files.delete(leftover);
        }
    }

    @Test
    void aFileTheManifestDoesNotListIsAFindingWhateverItsNameAndAHiddenFileIsNot() throws IOException {
        Path stale = output().resolve("solutions-n10.csv");
        Path foreign = output().resolve("notes.txt");
        Path hidden = output().resolve(".gitkeep");
        Files.writeString(stale, "ordinal,placement,class_ordinal,orbit_size,symmetry\n");
        Files.writeString(hidden, "");
        try {
            VerificationReport stray = verify();
            assertThat(stray.failures()).extracting(Check::name).containsExactly("export unlisted files");
            assertThat(stray.failures().get(0).detail())
                    .startsWith("solutions-n10.csv is not listed in manifest.json")
                    .contains("the next export removes it")
                    .doesNotContain(".gitkeep")
                    .doesNotContain("(and ");
            assertThat(stray.checks()).hasSize(CHECKS);

            Files.writeString(foreign, "the operator's own file");
            VerificationReport both = verify();
            assertThat(both.failures()).extracting(Check::name).containsExactly("export unlisted files");
            assertThat(both.failures().get(0).detail())
                    .startsWith("notes.txt is not listed in manifest.json")
                    .contains("not an export")
                    .endsWith("(and 1 more)");
        } finally {
            Files.deleteIfExists(stale);
            Files.deleteIfExists(foreign);
            Files.deleteIfExists(hidden);
        }
    }

    @Test
    @Transactional
    void tablesOfAGenerationThatNothingPublishesOrBuildsFailAsOrphaned() {
        jdbc.update("INSERT INTO stored_generation (generation, n, with_solutions, created_at)"
                + " VALUES (999, 8, TRUE, CURRENT_TIMESTAMP)");
        // The solutions of a size now kept with its classes only.
        jdbc.update("UPDATE board_summary SET stored = 'FUNDAMENTAL' WHERE n = 7");
        int published7 = jdbc.queryForObject("SELECT generation FROM board_summary WHERE n = 7", Integer.class);

        VerificationReport report = verify();

        assertThat(report.failures())
                .containsExactly(
                        new Check(
                                "n=7 generation " + published7,
                                false,
                                "orphaned: generation " + published7
                                        + " of n=7 (its solution table), which no published or building generation keeps;"
                                        + " the next run drops it"),
                        new Check(
                                "n=8 generation 999",
                                false,
                                "orphaned: generation 999 of n=8, which no published or"
                                        + " building generation keeps; the next run drops it"));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM solution WHERE n = 8", Long.class))
                .as("the views show the published generation only")
                .isEqualTo(92);
    }

    @Test
    @Transactional
    void tablesNothingKeepsAreBeingDroppedWhileARunIsGoingAndAGenerationBeingBuiltIsWorkInProgress() {
        jdbc.update("INSERT INTO stored_generation (generation, n, with_solutions, created_at)"
                + " VALUES (998, 9, FALSE, CURRENT_TIMESTAMP)");
        jdbc.update("INSERT INTO building_generation (n, generation, started_at, classes_stored)"
                + " VALUES (9, 998, CURRENT_TIMESTAMP, 46)");
        jdbc.update("INSERT INTO stored_generation (generation, n, with_solutions, created_at)"
                + " VALUES (997, 8, FALSE, CURRENT_TIMESTAMP)");
        jdbc.update("INSERT INTO batch_job_instance (job_instance_id, version, job_name, job_key)"
                + " VALUES (9999, 0, 'nightly', 'running')");
        jdbc.update("INSERT INTO batch_job_execution (job_execution_id, version, job_instance_id, create_time,"
                + " start_time, status) VALUES (9999, 0, 9999, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'STARTED')");

        VerificationReport report = verify();

        assertThat(report.allPassed()).as(report.render()).isTrue();
        assertThat(report.checks())
                .filteredOn(check ->
                        check.name().startsWith("n=9 work") || check.name().contains(" generation "))
                .extracting(Check::name, Check::detail)
                .containsExactly(
                        tuple(
                                "n=9 work in progress",
                                "46 classes and 0 solutions stored so far into generation 998," + " not published yet"),
                        tuple(
                                "n=8 generation 997",
                                "generation 997 of n=8 no longer shown, being dropped by the run" + " in progress"));
    }

    private String placement(int n, long ordinal) {
        return jdbc.queryForObject(
                "SELECT placement FROM " + solutions(n) + " WHERE ordinal = ?", String.class, ordinal);
    }

    private String solutions(int n) {
        return dev.nqueens.store.GenerationTables.solutionTable(n, generation(n));
    }

    private String classes(int n) {
        return dev.nqueens.store.GenerationTables.fundamentalTable(n, generation(n));
    }

    private int generation(int n) {
        return jdbc.queryForObject("SELECT generation FROM board_summary WHERE n = ?", Integer.class, n);
    }

    private VerificationReport verify() {
        return verifier.verify(output());
    }

    private static Path output() {
        return work.resolve("output");
    }
}
