package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.count.CountingEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nights shorter than the work, with the real jar: a run with a time window stops when it closes
 * (exit 5) with every size it finished published and exported and the others out of sight, and
 * the next run goes on and ends exactly right, every work unit counted and every chunk stored
 * once. On the embedded H2 and, when one is configured, on PostgreSQL. Where the window closes
 * (at the next work unit, a size finished before it published and not counted again) is tested on
 * a clock the test moves, in {@code TimeWindowIntegrationTests}.
 */
@Order(5) // one of the longest classes: second from the front after the in-process job tests (see the pom)
class WindowFunctionalTests {

    private static final Duration LONG = Duration.ofMinutes(5);

    @TempDir
    Path work;

    private Map<String, String> environment = Map.of();

    @BeforeEach
    void smallChunks() throws IOException {
        writeConfig("");
    }

    @Test
    void aClosedWindowPublishesWhatFinishedAndTheNextRunFinishesTheRestOnTheEmbeddedH2() throws Exception {
        nightsOfOneToEighteen();
    }

    @Test
    @EnabledIfEnvironmentVariable(
            named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+",
            disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void aClosedWindowPublishesWhatFinishedAndTheNextRunFinishesTheRestOnPostgres() throws Exception {
        environment = TestDatabases.postgresEnvironment("nqueens_window_ft");
        nightsOfOneToEighteen();
    }

    private void nightsOfOneToEighteen() throws Exception {
        // The default night but for n = 15, counted instead of stored as its 285,053 representatives
        // (their rows took half the test's time): every storage level and the counting engine still take part.
        writeConfig("  storage:\n    fundamental-up-to: 14\n");
        NqueensProcess.Result night = run("run", "--sizes", "1-18", "--window", "4s");

        assertThat(night.exitCode()).as(night.out() + night.err()).isEqualTo(5);
        assertThat(night.out()).contains("time window closed").contains("published in this run: n = 1-");
        List<Integer> published = new ArrayList<>();
        try (Connection db = open()) {
            for (int n = 1; n <= 18; n++) {
                if (count(db, "SELECT COUNT(*) FROM board_summary WHERE n = " + n) == 1) {
                    published.add(n);
                } else {
                    assertThat(count(db, "SELECT COUNT(*) FROM solution WHERE n = " + n))
                            .as("n=%d hidden", n)
                            .isZero();
                    assertThat(count(db, "SELECT COUNT(*) FROM fundamental_solution WHERE n = " + n))
                            .isZero();
                    assertThat(work.resolve(String.format("output/solutions-n%02d.json", n)))
                            .doesNotExist();
                }
            }
        }
        assertThat(published).as("some sizes published, some not").isNotEmpty().hasSizeLessThan(18);
        for (int n : published) {
            assertKnownCounts(n, night);
            if (n <= 13) {
                assertThat(Files.readString(work.resolve("output/manifest.json")))
                        .contains(String.format("solutions-n%02d.json", n));
            }
        }
        assertThat(run("history").out()).contains("WINDOW CLOSED");
        NqueensProcess.Result verify = run("verify");
        assertThat(verify.exitCode()).as(verify.out()).isZero();

        NqueensProcess.Result next = run("run", "--sizes", "1-18");

        assertThat(next.exitCode()).as(next.out() + next.err()).isZero();
        assertThat(next.out()).contains("Restarted the unfinished run of the same sizes");
        try (Connection db = open()) {
            for (int n = 1; n <= 18; n++) {
                assertKnownCounts(n, night, next);
            }
            for (int n = 1; n <= 13; n++) {
                long total = Reference.counts(n).total();
                assertThat(count(
                                db,
                                "SELECT COUNT(DISTINCT placement) FROM "
                                        + TestDatabases.tablesOf(db, n).solutions()))
                        .isEqualTo(total);
                assertThat(count(
                                db,
                                "SELECT COALESCE(SUM(write_count), 0) FROM batch_step_execution WHERE step_name = '"
                                        + String.format("solveSize:n%02d", n) + "'"))
                        .as("n=%d stored once, resumed at its last chunk", n)
                        .isEqualTo(total);
            }
            assertThat(count(
                            db, "SELECT SUM(write_count) FROM batch_step_execution WHERE step_name LIKE 'countPart:%'"))
                    .as("every work unit counted once over both nights")
                    .isEqualTo(units(15) + units(16) + units(17) + units(18));
            assertThat(count(db, "SELECT COUNT(*) FROM count_unit")).isZero();
        }
    }

    /** The published counts of {@code n} are the known ones; a failure shows what the runs printed. */
    private void assertKnownCounts(int n, NqueensProcess.Result... runs) throws SQLException {
        Reference.Counts expected = Reference.counts(n);
        try (Connection db = open()) {
            StringBuilder printed = new StringBuilder();
            for (NqueensProcess.Result run : runs) {
                printed.append("\n--- a run printed:\n").append(run.out()).append(run.err());
            }
            assertThat(count(db, "SELECT COUNT(*) FROM board_summary WHERE n = " + n))
                    .as("n=%d is not published%s", n, printed)
                    .isEqualTo(1);
            assertThat(count(db, "SELECT total_solutions FROM board_summary WHERE n = " + n))
                    .as("n=%d", n)
                    .isEqualTo(expected.total());
            assertThat(count(db, "SELECT fundamental_solutions FROM board_summary WHERE n = " + n))
                    .isEqualTo(expected.fundamental());
            assertThat(count(db, "SELECT rot90_classes FROM board_summary WHERE n = " + n))
                    .isEqualTo(expected.rot90());
            assertThat(count(db, "SELECT rot180_classes FROM board_summary WHERE n = " + n))
                    .isEqualTo(expected.rot180());
        }
    }

    private static long units(int n) {
        return CountingEngine.workUnits(n).size();
    }

    private void writeConfig(String more) throws IOException {
        Files.createDirectories(work.resolve("config"));
        Files.writeString(work.resolve("config/application.yml"), """
                nqueens:
                  chunk-size: 500
                  progress-interval: 1s
                """ + more);
    }

    /**
     * Runs the jar with the product's own JVM options: these nights count n = 15-18 and enumerate
     * n = 14's representatives, work long enough for the optimizing compiler to pay for itself
     * (docs/development.md).
     */
    private NqueensProcess.Result run(String... args) throws Exception {
        return NqueensProcess.start(work, NqueensProcess.withProductOptions(environment), args)
                .waitFor(LONG);
    }

    private Connection open() throws SQLException {
        return TestDatabases.open(environment, work);
    }

    private static long count(Connection db, String sql) throws SQLException {
        return TestDatabases.count(db, sql);
    }
}
