package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.Application;
import dev.nqueens.Reference;
import dev.nqueens.count.CountingEngine;
import dev.nqueens.export.ReportExporter;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StorageLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole job on a fresh database created by Flyway: stored rows, summaries against the
 * reference, resume after a partial size, a mismatch failing the job, golden export files and the
 * manifest's checksums. {@link NightlyJobIntegrationTests} runs these on an H2 file in PostgreSQL
 * mode, {@link NightlyJobPostgresIntegrationTests} on a real PostgreSQL server.
 *
 * <p>Every test starts from the first run, made once for the class: sizes 1 to 10 stored and
 * exported. A test that damages a size to see it resumed or rejected leaves it whole again, and
 * each test first completes whatever sizes a failed one left incomplete, so the tests run in any
 * order, and alone.
 */
@SpringBootTest(
        classes = Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {"nqueens.threads=2", "logging.file.name="})
abstract class AbstractNightlyJobIntegrationTests {

    @Autowired
    NightlyRun nightlyRun;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    org.springframework.batch.core.repository.JobRepository jobRepository;

    @Autowired
    RunControl runControl;

    Path output;

    /** Per concrete class (each has a fresh database of its own), the first run on it: sizes 1 to 10. */
    private static final Map<Class<?>, NightlyRun.Outcome> FIRST_RUNS = new ConcurrentHashMap<>();

    NightlyRun.Outcome firstRun;

    @BeforeEach
    void sizesOneToTenStored() {
        output = outputFolder();
        firstRun = FIRST_RUNS.computeIfAbsent(getClass(), test -> run("1-10"));
        if (count("SELECT COUNT(*) FROM board_summary WHERE n BETWEEN 1 AND 10", null) < 10) {
            run("1-10");
        }
    }

    /** The export folder the subclass configured. */
    abstract Path outputFolder();

    @Test
    void firstRunStoresExactlyTheKnownValuesForOneToTen() {
        NightlyRun.Outcome outcome = firstRun;

        assertThat(outcome.status()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(outcome.computedSizes()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        for (int n = 1; n <= 10; n++) {
            Reference.Counts expected = Reference.counts(n);
            Map<String, Object> summary = jdbc.queryForMap("SELECT * FROM board_summary WHERE n = ?", n);
            assertThat(summary).containsAllEntriesOf(expected.summaryColumns()).containsEntry("stored", "ALL");
            assertThat(count("SELECT COUNT(*) FROM solution WHERE n = ?", n)).isEqualTo(expected.total());
            assertThat(count("SELECT COUNT(*) FROM fundamental_solution WHERE n = ?", n))
                    .isEqualTo(expected.fundamental());
        }
        assertThat(storedSolutions()).isEqualTo(1 + 2 + 10 + 4 + 40 + 92 + 352 + 724);
        assertThat(count("SELECT COUNT(*) FROM stored_generation WHERE n <= 10", null))
                .as("one generation per size")
                .isEqualTo(10);
    }

    @Test
    void eightIsStoredInTheReferenceOrderWithItsClasses() {
        List<Reference.N8> expected = Reference.n8();
        List<Map<String, Object>> rows = jdbc.queryForList(
                "SELECT ordinal, placement, class_ordinal, orbit_size FROM solution WHERE n = 8 ORDER BY ordinal");
        assertThat(rows).hasSize(92);
        List<String> representatives = expected.stream()
                .filter(Reference.N8::fundamental)
                .map(Reference.N8::spaced)
                .toList();
        for (int i = 0; i < 92; i++) {
            Reference.N8 want = expected.get(i);
            Map<String, Object> row = rows.get(i);
            assertThat(row.get("ordinal")).isEqualTo((long) want.ordinal());
            assertThat(row.get("placement")).isEqualTo(want.spaced());
            assertThat(((Number) row.get("orbit_size")).intValue()).isEqualTo(want.orbitSize());
            long classOrdinal = ((Number) row.get("class_ordinal")).longValue();
            assertThat(representatives.get((int) classOrdinal - 1)).isEqualTo(want.representativeSpaced());
        }
    }

    @Test
    void aSecondRunOfTheSameSizesStoresNothingTwice() {
        long before = storedSolutions();
        NightlyRun.Outcome outcome = run("1-10");
        assertThat(outcome.status()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(outcome.computedSizes()).isEmpty();
        assertThat(storedSolutions()).isEqualTo(before);
        for (int n = 1; n <= 10; n++) {
            assertThat(count(
                            "SELECT COUNT(*) FROM (SELECT placement FROM " + solutions(n) + " GROUP BY placement"
                                    + " HAVING COUNT(*) > 1) d",
                            null))
                    .isZero();
        }
    }

    @Test
    void aPartlyStoredSizeIsCompletedFromWhereItStopped() {
        int generation = generation(10);
        unpublishKeeping(10, 30);
        assertThat(count("SELECT COUNT(*) FROM " + classes(10), null)).isBetween(1L, 91L);
        assertThat(count("SELECT COUNT(*) FROM solution WHERE n = ?", 10))
                .as("an unpublished size is out of sight")
                .isZero();

        NightlyRun.Outcome outcome = run("9-10");

        assertThat(outcome.status()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(outcome.computedSizes()).containsExactly(10);
        assertThat(count("SELECT COUNT(*) FROM solution WHERE n = ?", 10)).isEqualTo(724);
        assertThat(count("SELECT COUNT(*) FROM fundamental_solution WHERE n = ?", 10))
                .isEqualTo(92);
        assertThat(count("SELECT MAX(ordinal) FROM " + solutions(10), null)).isEqualTo(724);
        assertThat(jdbc.queryForObject("""
                SELECT SUM(s.write_count) FROM batch_step_execution s WHERE s.step_name = 'solveSize:n10'
                AND s.job_execution_id = (SELECT MAX(job_execution_id) FROM batch_job_execution)""", Long.class))
                .as("only the solutions after the 30 stored were computed")
                .isEqualTo(724 - 30);
        assertThat(generation(10))
                .as("the size was completed in the generation it was being computed into")
                .isEqualTo(generation);
    }

    @Test
    void rowsAKilledChunkLeftPastTheCheckpointAreCutAndTheSizeCompleted() {
        // What H2 can reopen after a SIGKILL mid-chunk: the chunk's rows, or some of them, without
        // the checkpoint that commits them.
        int generation = generation(10);
        unpublishKeeping(10, 724);
        jdbc.update("UPDATE building_generation SET solutions_stored = 400, classes_stored = (SELECT MAX(class_ordinal)"
                + " FROM " + solutions(10) + " WHERE ordinal <= 400), last_placement = (SELECT placement FROM "
                + solutions(10) + " WHERE ordinal = 400) WHERE n = 10");
        jdbc.update("DELETE FROM " + solutions(10) + " WHERE ordinal > 400 AND ordinal NOT IN (450, 451, 700)");

        NightlyRun.Outcome outcome = run("10");

        assertThat(outcome.status()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(generation(10)).isEqualTo(generation);
        assertThat(count("SELECT COUNT(*) FROM solution WHERE n = ?", 10)).isEqualTo(724);
        assertThat(count("SELECT COUNT(DISTINCT placement) FROM solution WHERE n = ?", 10))
                .isEqualTo(724);
        assertThat(count("SELECT MAX(ordinal) FROM " + solutions(10), null)).isEqualTo(724);
        assertThat(count("SELECT COUNT(*) FROM fundamental_solution WHERE n = ?", 10))
                .isEqualTo(92);
        assertThat(count("SELECT COUNT(*) FROM solution_cell WHERE n = ?", 10)).isEqualTo(724 * 10);
        assertThat(count("SELECT COUNT(*) FROM solution_cell WHERE n = ? AND queen_row = 1 AND queen_column = 1", 10))
                .isEqualTo(count("SELECT COUNT(*) FROM solution WHERE n = ? AND placement LIKE '1 %'", 10));
    }

    @Test
    void aGenerationMissingRowsBeforeItsCheckpointIsComputedAfresh() {
        int generation = generation(10);
        unpublishKeeping(10, 500);
        jdbc.update("DELETE FROM " + solutions(10) + " WHERE ordinal = 123");

        NightlyRun.Outcome outcome = run("10");

        assertThat(outcome.status()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(generation(10)).as("a new generation").isNotEqualTo(generation);
        assertThat(count("SELECT COUNT(*) FROM stored_generation WHERE n = ?", 10))
                .as("the broken one dropped")
                .isEqualTo(1);
        assertThat(count("SELECT COUNT(DISTINCT placement) FROM solution WHERE n = ?", 10))
                .isEqualTo(724);
        assertThat(jdbc.queryForObject("""
                SELECT SUM(s.write_count) FROM batch_step_execution s WHERE s.step_name = 'solveSize:n10'
                AND s.job_execution_id = (SELECT MAX(job_execution_id) FROM batch_job_execution)""", Long.class)).isEqualTo(724);
    }

    @Test
    void aSizeThatDisagreesWithTheKnownValuesFailsTheJobAndGetsNoSummary() {
        // On a size of its own (the others' stay whole): 11, stored, then damaged to a prefix that looks
        // complete: the last ten rows gone, row 2670 renamed to the last solution.
        assertThat(run("11").status()).isEqualTo(BatchStatus.COMPLETED);
        String last =
                jdbc.queryForObject("SELECT placement FROM " + solutions(11) + " WHERE ordinal = 2680", String.class);
        unpublishKeeping(11, 2670);
        jdbc.update("UPDATE " + solutions(11) + " SET placement = ? WHERE ordinal = 2670", last);
        jdbc.update("UPDATE building_generation SET last_placement = ? WHERE n = 11", last);

        NightlyRun.Outcome outcome = run("11");

        assertThat(outcome.status()).isEqualTo(BatchStatus.FAILED);
        assertThat(outcome.failures())
                .singleElement()
                .asString()
                .isEqualTo(
                        "n=11: computed 2670 solutions, 341 fundamental (rot90/rot180/asymmetric 0/12/329),"
                                + " but the known values are 2680 solutions, 341 fundamental (rot90/rot180/asymmetric 0/12/329)");
        assertThat(count("SELECT COUNT(*) FROM board_summary WHERE n = ?", 11)).isZero();
    }

    @Test
    void exportsOfSixMatchTheGoldenFiles() throws IOException {
        for (String name : List.of(
                ReportExporter.solutionsName(6) + ".csv",
                ReportExporter.solutionsName(6) + ".json",
                ReportExporter.fundamentalName(6) + ".csv",
                ReportExporter.fundamentalName(6) + ".json")) {
            assertThat(output.resolve(name))
                    .as(name)
                    .hasSameTextualContentAs(Path.of("src/test/resources/expected", name));
        }
    }

    @Test
    void theManifestListsEveryFileWithItsSizeAndChecksum() throws IOException {
        JsonNode manifest = JsonMapper.builder()
                .build()
                .readTree(output.resolve("manifest.json").toFile());
        List<String> listed = new java.util.ArrayList<>();
        for (JsonNode file : manifest.get("files")) {
            listed.add(file.get("name").asString());
            Path exported = output.resolve(file.get("name").asString());
            assertThat(Files.size(exported)).isEqualTo(file.get("bytes").asLong());
            assertThat(sha256(exported)).isEqualTo(file.get("sha256").asString());
        }
        for (int n = 1; n <= 10; n++) {
            assertThat(listed)
                    .contains(
                            ReportExporter.solutionsName(n) + ".csv",
                            ReportExporter.solutionsName(n) + ".json",
                            ReportExporter.fundamentalName(n) + ".csv",
                            ReportExporter.fundamentalName(n) + ".json");
        }
        try (var listing = Files.list(output)) {
            assertThat(listing.map(p -> p.getFileName().toString())
                            .filter(name ->
                                    !List.of("manifest.json", "SHA256SUMS").contains(name)))
                    .as("every file, and nothing half-written")
                    .containsExactlyInAnyOrderElementsOf(listed);
        }
        JsonNode summary = JsonMapper.builder()
                .build()
                .readTree(output.resolve("summary.json").toFile());
        assertThat(summary.get("sizes").get(7).get("total_solutions").asLong()).isEqualTo(92);
    }

    @Test
    void theDocumentedQueriesRunAndReturnRows() throws IOException {
        List<String> queries = documentedSqlBlocks();
        assertThat(queries).hasSizeGreaterThanOrEqualTo(3);
        for (String query : queries) {
            assertThat(jdbc.queryForList(query)).as(query).isNotEmpty();
        }
        assertThat(jdbc.queryForList(queries.get(1))).hasSize(8);
        // The cell query (row 4, column 2 of n = 8) against the reference's placements.
        List<Long> withQueenInRow4Column2 = dev.nqueens.Reference.n8().stream()
                .filter(solution -> solution.placement().charAt(3) == '2')
                .map(solution -> (long) solution.ordinal())
                .toList();
        assertThat(withQueenInRow4Column2).hasSize(8);
        assertThat(jdbc.queryForList(queries.get(2)).stream()
                        .map(row -> ((Number) row.get("ordinal")).longValue())
                        .toList())
                .isEqualTo(withQueenInRow4Column2);
    }

    @Test
    void stoppingThisProcessLeavesTheRunOfAnotherProcessAlone() throws Exception {
        // A run that another process (a cluster's manager) started on the shared database.
        org.springframework.batch.core.job.parameters.JobParameters parameters =
                new org.springframework.batch.core.job.parameters.JobParametersBuilder()
                        .addString("startedBy", "another process")
                        .toJobParameters();
        org.springframework.batch.core.job.JobExecution theirs = jobRepository.createJobExecution(
                jobRepository.createJobInstance(NightlyJobConfiguration.JOB_NAME, parameters),
                parameters,
                new org.springframework.batch.infrastructure.item.ExecutionContext());
        theirs.setStatus(BatchStatus.STARTED);
        theirs.setStartTime(java.time.LocalDateTime.now());
        jobRepository.update(theirs);
        try {
            // A worker reads the run's time window before each unit it counts for it.
            assertThat(runControl.windowClosed(theirs.getId())).isFalse();
            assertThat(nightlyRun.stopRunning()).isFalse();
            assertThat(jobRepository.getJobExecution(theirs.getId()).getStatus())
                    .isEqualTo(BatchStatus.STARTED);
        } finally {
            theirs.setStatus(BatchStatus.FAILED);
            theirs.setEndTime(java.time.LocalDateTime.now());
            jobRepository.update(theirs);
        }
    }

    /** The fenced {@code sql} blocks of docs/sql.md (the examples analysts copy), comments stripped. */
    static List<String> documentedSqlBlocks() throws IOException {
        List<String> blocks = new java.util.ArrayList<>();
        StringBuilder current = null;
        for (String line : Files.readAllLines(Path.of("docs", "sql.md"))) {
            if (line.equals("```sql")) {
                current = new StringBuilder();
            } else if (line.equals("```") && current != null) {
                blocks.add(current.toString().trim().replaceAll(";$", ""));
                current = null;
            } else if (current != null && !line.startsWith("--")) {
                current.append(line).append('\n');
            }
        }
        return blocks;
    }

    /**
     * A run that publishes one size exports the others from the files already there when their
     * summary rows did not change: their rows are not read again (here an altered row of n = 8 does
     * not reach its files), while the size published anew is written from its rows.
     */
    @Test
    void sizesWhoseRowDidNotChangeKeepTheirFilesWithoutARead() throws IOException {
        Path eight = output.resolve(ReportExporter.solutionsName(8) + ".csv");
        assertThat(eight).exists();
        String eightBefore = sha256(eight);
        String first =
                jdbc.queryForObject("SELECT placement FROM " + solutions(8) + " WHERE ordinal = 1", String.class);
        jdbc.update("UPDATE " + solutions(8) + " SET placement = '8 8 8 8 8 8 8 8' WHERE ordinal = 1");
        try {
            unpublishKeeping(10, 100);

            NightlyRun.Outcome ten = run("10");

            assertThat(ten.status()).as(ten.failures().toString()).isEqualTo(BatchStatus.COMPLETED);

            assertThat(sha256(eight)).isEqualTo(eightBefore);
            assertThat(eight)
                    .content()
                    .startsWith("ordinal,placement,class_ordinal,orbit_size,symmetry\n1,\"1 5 8 6 3 7 2 4\",");
            assertThat(output.resolve(ReportExporter.solutionsName(10) + ".csv"))
                    .content()
                    .hasLineCount(1 + 724);
            JsonNode manifest = JsonMapper.builder()
                    .build()
                    .readTree(output.resolve("manifest.json").toFile());
            for (JsonNode file : manifest.get("files")) {
                Path exported = output.resolve(file.get("name").asString());
                assertThat(sha256(exported))
                        .as(file.get("name").asString())
                        .isEqualTo(file.get("sha256").asString());
            }
        } finally {
            jdbc.update("UPDATE " + solutions(8) + " SET placement = ? WHERE ordinal = 1", first);
        }
    }

    /**
     * A counted size's work units (2,219 for n = 16, a millisecond or so each) are stored a batch at a
     * time, one transaction for each 0.2 s of counting: a transaction each cost more than the counting.
     */
    @Test
    void aCountedSizeStoresItsWorkUnitsAFewTransactionsAtATime() {
        NightlyRun.Outcome outcome = run("16");

        assertThat(outcome.status()).as(outcome.failures().toString()).isEqualTo(BatchStatus.COMPLETED);
        Reference.Counts expected = Reference.counts(16);
        assertThat(count("SELECT total_solutions FROM board_summary WHERE n = ?", 16))
                .isEqualTo(expected.total());
        assertThat(count("SELECT fundamental_solutions FROM board_summary WHERE n = ?", 16))
                .isEqualTo(expected.fundamental());
        assertThat(count("SELECT rot90_classes FROM board_summary WHERE n = ?", 16))
                .isEqualTo(expected.rot90());
        assertThat(count("SELECT rot180_classes FROM board_summary WHERE n = ?", 16))
                .isEqualTo(expected.rot180());
        long units = CountingEngine.workUnits(16).size();
        assertThat(count(
                        "SELECT SUM(write_count) FROM batch_step_execution WHERE step_name LIKE 'countPart:n16-%'",
                        null))
                .as("every unit stored once")
                .isEqualTo(units);
        assertThat(count(
                        "SELECT SUM(commit_count) FROM batch_step_execution WHERE step_name LIKE 'countPart:n16-%'",
                        null))
                .as("transactions for %d units", units)
                .isLessThan(units / 10);
    }

    /**
     * Size {@code n} as a run that stopped after its first {@code solutions} solutions leaves it: its
     * generation still being built, holding those solutions, their classes and the checkpoint they
     * reach.
     */
    private void unpublishKeeping(int n, long solutions) {
        String table = solutions(n);
        jdbc.update("DELETE FROM " + table + " WHERE ordinal > ?", solutions);
        long classCount = count("SELECT COALESCE(MAX(class_ordinal), 0) FROM " + table, null);
        jdbc.update("DELETE FROM " + classes(n) + " WHERE class_ordinal > ?", classCount);
        jdbc.update("""
                INSERT INTO building_generation (n, generation, started_at, solutions_stored, classes_stored,
                    last_placement)
                SELECT n, generation, CURRENT_TIMESTAMP, ?, ?, (SELECT placement FROM %s WHERE ordinal = ?)
                FROM board_summary WHERE n = ?""".formatted(table), solutions, classCount, solutions, n);
        jdbc.update("DELETE FROM board_summary WHERE n = ?", n);
    }

    /** The generation of size {@code n}: the published one, else the one being built. */
    private int generation(int n) {
        return jdbc.queryForObject(
                "SELECT COALESCE((SELECT generation FROM board_summary WHERE n = ?),"
                        + " (SELECT generation FROM building_generation WHERE n = ?))",
                Integer.class,
                n,
                n);
    }

    private String solutions(int n) {
        return dev.nqueens.store.GenerationTables.solutionTable(n, generation(n));
    }

    private String classes(int n) {
        return dev.nqueens.store.GenerationTables.fundamentalTable(n, generation(n));
    }

    /** Every solution row of every registered generation of sizes 1 to 10 (the other tests' sizes aside). */
    private long storedSolutions() {
        long total = 0;
        for (Map<String, Object> g : jdbc.queryForList(
                "SELECT n, generation FROM stored_generation" + " WHERE with_solutions AND n <= 10")) {
            total += count(
                    "SELECT COUNT(*) FROM "
                            + dev.nqueens.store.GenerationTables.solutionTable(
                                    ((Number) g.get("n")).intValue(), ((Number) g.get("generation")).intValue()),
                    null);
        }
        return total;
    }

    NightlyRun.Outcome run(String sizes) {
        return nightlyRun.run(new RunRequest(
                BoardSizes.parse(sizes), new StorageLimits(13, 15), false, java.time.LocalDateTime.now()));
    }

    private long count(String sql, Integer n) {
        Long value = n == null ? jdbc.queryForObject(sql, Long.class) : jdbc.queryForObject(sql, Long.class, n);
        return value == null ? 0 : value;
    }

    static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
