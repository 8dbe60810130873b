package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.Application;
import dev.nqueens.Reference;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import dev.nqueens.count.CountResult;
import dev.nqueens.count.CountingEngine;
import dev.nqueens.count.WorkUnit;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StorageLimits;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.GenerationTables;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.batch.core.BatchStatus;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The three storage levels on one database: every size up to 13 computed through each path
 * (every solution, representatives only, counts only) gives exactly the reference counts;
 * sizes move between levels by recomputing (up, or --force), are kept above lower settings, and go
 * down by dropping rows only when the run is asked to lower them; and a
 * counted size whose sub-partitions are partly recorded resumes without counting them again.
 * Each test first brings the sizes it looks at to the levels it starts from, so they run in any order.
 */
@ResourceLock(TestResources.TEST_JVM)
@SpringBootTest(
        classes = Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {"nqueens.threads=2", "logging.file.name="})
@Order(Integer.MAX_VALUE - 2) // one of the longest classes: third from the back of the list (see the pom)
class StorageLevelsIntegrationTests {

    private static final String SIZES = "1-13";

    @TempDir
    static Path work;

    @DynamicPropertySource
    static void freshDatabase(DynamicPropertyRegistry registry) {
        TestDatabases.useH2(registry, work);
        registry.add("nqueens.output-dir", () -> work.resolve("output").toString());
    }

    @Autowired
    NightlyRun nightlyRun;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void everySolutionStoredGivesTheReferenceCounts() {
        assertCompleted(run(SIZES, 13, 13, false));
        assertReference("ALL");
        assertThat(solutionRows(13)).isEqualTo(73_712);
    }

    @Test
    void representativesOnlyRecomputedWithForceGiveTheReferenceCounts() {
        assertCompleted(run(SIZES, 0, 0, false)); // each size stored, at whatever level, so each is replaced
        NightlyRun.Outcome outcome = runLowering(SIZES, 0, 13, true);
        assertCompleted(outcome);
        assertThat(outcome.plan()).allMatch(size -> size.action() == SizePlan.Action.REPLACE);
        assertReference("FUNDAMENTAL");
        assertThat(solutionRows(13)).isZero();
        assertOnlyThePublishedGenerations();
    }

    @Test
    void countsOnlyRecomputedWithForceGiveTheReferenceCounts() {
        NightlyRun.Outcome outcome = runLowering(SIZES, 0, 0, true);
        assertCompleted(outcome);
        assertReference("COUNT");
        assertThat(rows("fundamental_solution", 13)).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM count_unit", Long.class))
                .isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM count_plan", Long.class))
                .isZero();
        assertOnlyThePublishedGenerations();
    }

    @Test
    void upgradingRecomputesAndOnlyALoweringAskedForDropsRows() {
        assertCompleted(runLowering("12-13", 0, 0, false)); // 12 and 13 kept as counts only
        NightlyRun.Outcome up = run("12-13", 13, 13, false);
        assertCompleted(up);
        assertThat(up.plan()).extracting(SizePlan::action).containsOnly(SizePlan.Action.REPLACE);
        assertThat(solutionRows(13)).isEqualTo(73_712);
        assertThat(rows("fundamental_solution", 13)).isEqualTo(9_233);
        assertOnlyThePublishedGenerations();

        Object computedAt = jdbc.queryForObject("SELECT computed_at FROM board_summary WHERE n = 13", Object.class);
        NightlyRun.Outcome kept = run("12-13", 11, 12, false);
        assertCompleted(kept);
        assertThat(kept.plan())
                .as("lower settings alone keep what is stored")
                .containsExactly(
                        new SizePlan(12, StoredLevel.ALL, SizePlan.Action.KEEP),
                        new SizePlan(13, StoredLevel.ALL, SizePlan.Action.KEEP));
        assertThat(solutionRows(12)).isEqualTo(14_200);
        assertThat(solutionRows(13)).isEqualTo(73_712);
        assertThat(level(13)).isEqualTo("ALL");

        NightlyRun.Outcome down = runLowering("12-13", 11, 12, false);
        assertCompleted(down);
        assertThat(down.plan())
                .extracting(SizePlan::action)
                .containsExactly(SizePlan.Action.DOWNGRADE, SizePlan.Action.DOWNGRADE);
        assertThat(level(12)).isEqualTo("FUNDAMENTAL");
        assertThat(level(13)).isEqualTo("COUNT");
        assertThat(solutionRows(12)).isZero();
        assertThat(rows("fundamental_solution", 12)).isEqualTo(1_787);
        assertThat(rows("fundamental_solution", 13)).isZero();
        assertThat(jdbc.queryForObject("SELECT computed_at FROM board_summary WHERE n = 13", Object.class))
                .as("a downgrade keeps the verified counts")
                .isEqualTo(computedAt);
        assertThat(jdbc.queryForObject("SELECT total_solutions FROM board_summary WHERE n = 13", Long.class))
                .isEqualTo(73_712L);
        assertOnlyThePublishedGenerations();
    }

    @Test
    void aCountedSizeWithRecordedUnitsResumesInItsOwnSplitWithoutCountingThemAgain() {
        int n = 15;
        int partitions = 8;
        List<WorkUnit> units = CountingEngine.workUnits(n);
        assertThat(units.size()).isGreaterThan(4 * partitions);
        // An earlier run planned n = 15 into 8 partitions (not today's default) and counted partitions 0..3.
        jdbc.update(
                "INSERT INTO count_plan (n, work_units, unit_fingerprint, partitions, replicas, planned_at)"
                        + " VALUES (?, ?, ?, ?, 1, CURRENT_TIMESTAMP)",
                n,
                units.size(),
                WorkUnits.fingerprint(n),
                partitions);
        CountingEngine engine = new CountingEngine(n);
        int recorded = 0;
        for (WorkUnit unit : units) {
            if (unit.index() % partitions < partitions / 2) {
                CountResult result = engine.count(unit);
                jdbc.update(
                        """
                        INSERT INTO count_unit (n, unit_index, replica, total_solutions, fundamental_solutions,
                            rot90_classes, rot180_classes, asymmetric_classes, elapsed_ms, counted_by, computed_at)
                        VALUES (?, ?, 1, ?, ?, ?, ?, ?, 0, 'earlier run', CURRENT_TIMESTAMP)""",
                        n,
                        unit.index(),
                        result.total(),
                        result.fundamental(),
                        result.rot90Classes(),
                        result.rot180Classes(),
                        result.asymmetricClasses());
                recorded++;
            }
        }

        NightlyRun.Outcome outcome = run("15", 0, 0, false);

        assertCompleted(outcome);
        Reference.Counts expected = Reference.counts(n);
        assertThat(jdbc.queryForMap("SELECT * FROM board_summary WHERE n = 15"))
                .containsAllEntriesOf(expected.summaryColumns())
                .containsEntry("stored", "COUNT");
        List<Map<String, Object>> workers = jdbc.queryForList("""
                SELECT s.step_name, s.write_count FROM batch_step_execution s
                WHERE s.step_name LIKE 'countPart:n15%' AND s.job_execution_id =
                    (SELECT MAX(job_execution_id) FROM batch_job_execution)
                ORDER BY s.step_name""");
        assertThat(workers)
                .as("the split planned earlier is kept; the partitions counted already are not run")
                .extracting(row -> row.get("step_name"))
                .containsExactly(
                        "countPart:n15-p0004-of-0008",
                        "countPart:n15-p0005-of-0008",
                        "countPart:n15-p0006-of-0008",
                        "countPart:n15-p0007-of-0008");
        long counted = workers.stream()
                .mapToLong(row -> ((Number) row.get("write_count")).longValue())
                .sum();
        assertThat(counted)
                .as("every unit counted once: the recorded ones not again")
                .isEqualTo(units.size() - recorded);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM count_unit WHERE n = 15", Long.class))
                .as("units are forgotten once the size is published")
                .isZero();
    }

    @Test
    void twoCountsOfAUnitThatDisagreeAreDroppedNamedAndCountedAgain() {
        int n = 14;
        int partitions = 4;
        List<WorkUnit> units = CountingEngine.workUnits(n);
        // A size counted twice (as the cluster counts sizes without published values): replica 2 of
        // one unit came from a faulty worker.
        jdbc.update("DELETE FROM board_summary WHERE n = 14");
        jdbc.update(
                "INSERT INTO count_plan (n, work_units, unit_fingerprint, partitions, replicas, planned_at)"
                        + " VALUES (?, ?, ?, ?, 2, CURRENT_TIMESTAMP)",
                n,
                units.size(),
                WorkUnits.fingerprint(n),
                partitions);
        CountingEngine engine = new CountingEngine(n);
        int faulty = units.size() / 2;
        for (WorkUnit unit : units) {
            CountResult result = engine.count(unit);
            for (int replica = 1; replica <= 2; replica++) {
                long wrong = replica == 2 && unit.index() == faulty ? 8 : 0;
                jdbc.update(
                        """
                        INSERT INTO count_unit (n, unit_index, replica, total_solutions, fundamental_solutions,
                            rot90_classes, rot180_classes, asymmetric_classes, elapsed_ms, counted_by, computed_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, CURRENT_TIMESTAMP)""",
                        n,
                        unit.index(),
                        replica,
                        result.total() + wrong,
                        result.fundamental() + wrong / 8,
                        result.rot90Classes(),
                        result.rot180Classes(),
                        result.asymmetricClasses() + wrong / 8,
                        replica == 1 ? "good-worker:1" : "bad-worker:2");
            }
        }

        NightlyRun.Outcome run = run("14", 0, 0, false);

        assertCompleted(run);
        assertThat(run.notes())
                .singleElement()
                .asString()
                .startsWith("n=14: the two counts of 1 work unit(s) disagree, so both were dropped and they are"
                        + " counted again: unit " + faulty + " ")
                .contains("by good-worker:1 but ")
                .contains("by bad-worker:2");
        Reference.Counts expected = Reference.counts(n);
        assertThat(jdbc.queryForMap("SELECT * FROM board_summary WHERE n = 14"))
                .containsEntry("total_solutions", expected.total())
                .containsEntry("fundamental_solutions", expected.fundamental())
                .containsEntry("asymmetric_classes", expected.asymmetric());
        assertThat(jdbc.queryForObject("""
                SELECT SUM(s.write_count) FROM batch_step_execution s
                WHERE s.step_name LIKE 'countPart:n14%' AND s.job_execution_id =
                    (SELECT MAX(job_execution_id) FROM batch_job_execution)""", Long.class))
                .as("only the dropped unit is counted again, in both replicas")
                .isEqualTo(2L);
    }

    private NightlyRun.Outcome run(String sizes, int allUpTo, int fundamentalUpTo, boolean force) {
        return nightlyRun.run(new RunRequest(
                BoardSizes.parse(sizes), new StorageLimits(allUpTo, fundamentalUpTo), force, LocalDateTime.now()));
    }

    /** A run asked to lower every size it names (to recompute them at lower levels, or drop rows). */
    private NightlyRun.Outcome runLowering(String sizes, int allUpTo, int fundamentalUpTo, boolean force) {
        BoardSizes named = BoardSizes.parse(sizes);
        return nightlyRun.run(new RunRequest(
                named,
                new StorageLimits(allUpTo, fundamentalUpTo),
                force,
                java.util.Set.copyOf(named.sizes()),
                LocalDateTime.now(),
                java.time.Instant.now(),
                java.util.Optional.empty()));
    }

    private static void assertCompleted(NightlyRun.Outcome outcome) {
        assertThat(outcome.status()).as(String.join("; ", outcome.failures())).isEqualTo(BatchStatus.COMPLETED);
    }

    private void assertReference(String level) {
        for (int n = 1; n <= 13; n++) {
            Reference.Counts expected = Reference.counts(n);
            assertThat(jdbc.queryForMap("SELECT * FROM board_summary WHERE n = ?", n))
                    .as("n=%d", n)
                    .containsAllEntriesOf(expected.summaryColumns())
                    .containsEntry("stored", level);
            long fundamentalRows = rows("fundamental_solution", n);
            assertThat(fundamentalRows).isEqualTo(level.equals("COUNT") ? 0 : expected.fundamental());
            assertThat(solutionRows(n)).isEqualTo(level.equals("ALL") ? expected.total() : 0);
        }
    }

    /**
     * Publishing left nothing behind: no size is being built, the stored rows are those of the
     * published generations, and only what their levels keep.
     */
    private void assertOnlyThePublishedGenerations() {
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM building_generation", Long.class))
                .isZero();
        assertThat(jdbc.queryForList("SELECT g.generation FROM stored_generation g WHERE NOT EXISTS (SELECT 1"
                        + " FROM board_summary b WHERE b.n = g.n AND b.generation = g.generation AND (b.stored = 'ALL'"
                        + " OR b.stored = 'FUNDAMENTAL' AND NOT g.with_solutions))"))
                .as("generations kept")
                .isEmpty();
        List<String> tables = jdbc.queryForList(
                "SELECT table_name FROM information_schema.tables WHERE table_name"
                        + " LIKE 'solution\\_n%' OR table_name LIKE 'fundamental\\_n%' ORDER BY table_name",
                String.class);
        List<String> registered = new java.util.ArrayList<>();
        for (Map<String, Object> g : jdbc.queryForList("SELECT n, generation, with_solutions FROM stored_generation")) {
            int n = ((Number) g.get("n")).intValue();
            int generation = ((Number) g.get("generation")).intValue();
            registered.add(GenerationTables.fundamentalTable(n, generation));
            if ((Boolean) g.get("with_solutions")) {
                registered.add(GenerationTables.solutionTable(n, generation));
            }
        }
        assertThat(tables).as("no table of a dropped generation left").containsExactlyInAnyOrderElementsOf(registered);
    }

    /** The solution rows of size {@code n} in every table the registry knows of it. */
    private long solutionRows(int n) {
        long rows = 0;
        for (Integer generation : jdbc.queryForList(
                "SELECT generation FROM stored_generation WHERE n = ?" + " AND with_solutions", Integer.class, n)) {
            rows += jdbc.queryForObject(
                    "SELECT COUNT(*) FROM " + GenerationTables.solutionTable(n, generation), Long.class);
        }
        return rows;
    }

    private String level(int n) {
        return jdbc.queryForObject("SELECT stored FROM board_summary WHERE n = ?", String.class, n);
    }

    private long rows(String table, int n) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE n = ?", Long.class, n);
    }
}
