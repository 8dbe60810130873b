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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nights shorter than the work, with the real jar: a run with a time window stops when it closes
 * (exit 5) with every size it finished published and exported and the others out of sight, and
 * the next run goes on and ends exactly right, every work unit counted and every chunk stored
 * once. On the embedded H2 and, when one is configured, on PostgreSQL.
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

    @Test
    void aWindowThatClosesInTheMiddleOfALongPartitionEndsAtTheNextWorkUnit() throws Exception {
        // n = 17 in a single partition of 588 work units of a few milliseconds to a second: 2 s of
        // one core on a Zen 5 host once the optimizing compiler has the engine, more in a fresh JVM,
        // so a 1 s window closes in the middle of it.
        writeConfig("  count:\n    partitions: 1\n");
        NqueensProcess.Result night = run("run", "--sizes", "17", "--window", "1s");
        assertThat(night.exitCode()).as(night.out() + night.err()).isEqualTo(5);
        double after = secondsAfterWhichTheWindowClosed(night.out());
        assertThat(after)
                .as("the window (1 s) and at most one work unit, plus publishing")
                .isLessThan(5.0);
        long counted;
        try (Connection db = open()) {
            counted = count(db, "SELECT COUNT(*) FROM count_unit WHERE n = 17");
        }
        assertThat(counted).as("finished units are kept").isPositive().isLessThan(units(17));

        NqueensProcess.Result next = run("run", "--sizes", "17");
        assertThat(next.exitCode()).as(next.out() + next.err()).isZero();
        assertKnownCounts(17, next);
        try (Connection db = open()) {
            assertThat(count(
                            db, "SELECT SUM(write_count) FROM batch_step_execution WHERE step_name LIKE 'countPart:%'"))
                    .as("every unit counted once over both nights")
                    .isEqualTo(units(17));
        }
    }

    @Test
    void aSizePublishedOnAnEarlierNightIsNotCountedAgain() throws Exception {
        // Counted sizes only, one partition each: n = 14 takes a second or two (each of its 588 units
        // commits on its own; 3.6 s on a busy 2-core host), n = 18 on one thread 10 s or more after
        // it (n = 17 took 4 to 8 s, then 2 s on a Zen 5 host: the window did not close).
        writeConfig("  count:\n    partitions: 1\n");
        NqueensProcess.Result night = run(
                "run",
                "--sizes",
                "14-18",
                "--store-all-up-to",
                "13",
                "--store-fundamental-up-to",
                "13",
                "--window",
                "4s");
        assertThat(night.exitCode()).as(night.out() + night.err()).isEqualTo(5);
        assertThat(night.out()).contains("published in this run: n = 14");
        assertThat(night.err()).as("a closed window is no failure").doesNotContain("interrupted");
        List<Integer> published = new ArrayList<>();
        try (Connection db = open()) {
            for (int n = 14; n <= 18; n++) {
                long units = count(db, "SELECT COUNT(*) FROM count_unit WHERE n = " + n);
                if (count(db, "SELECT COUNT(*) FROM board_summary WHERE n = " + n) == 1) {
                    published.add(n);
                } else {
                    assertThat(units)
                            .as("n=%d: not published although all its units were counted", n)
                            .isLessThan(units(n));
                }
            }
        }
        assertThat(published)
                .as("n = 14 takes a second, n = 18 ten")
                .contains(14)
                .doesNotContain(18);

        NqueensProcess.Result next =
                run("run", "--sizes", "14-18", "--store-all-up-to", "13", "--store-fundamental-up-to", "13");
        assertThat(next.exitCode()).as(next.out() + next.err()).isZero();
        assertThat(next.out()).contains("Restarted the unfinished run of the same sizes");
        for (int n = 14; n <= 18; n++) {
            assertKnownCounts(n, night, next);
        }
        try (Connection db = open()) {
            for (int n : published) {
                assertThat(count(db, String.format("""
                        SELECT COUNT(*) FROM batch_step_execution
                        WHERE step_name = 'countPart:n%02d-p0000-of-0001'
                          AND job_execution_id = (SELECT MAX(job_execution_id) FROM batch_job_execution)
                        """, n)))
                        .as("n=%d, published the night before, gets no partition", n)
                        .isZero();
            }
            assertThat(count(
                            db, "SELECT SUM(write_count) FROM batch_step_execution WHERE step_name LIKE 'countPart:%'"))
                    .as("every unit counted once over both nights")
                    .isEqualTo(units(14) + units(15) + units(16) + units(17) + units(18));
            assertThat(count(db, "SELECT COUNT(*) FROM count_plan"))
                    .as("no split left behind")
                    .isZero();
        }
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

    private static double secondsAfterWhichTheWindowClosed(String out) {
        Matcher closed = Pattern.compile("time window closed after ([0-9.]+) s").matcher(out);
        assertThat(closed.find()).as(out).isTrue();
        return Double.parseDouble(closed.group(1));
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
     * n = 14's representatives, work long enough for the optimizing compiler to pay (the resumed night
     * of 1-18 took 79 s with it and 232 s with the quick compiler alone, NqueensProcess.QUICK_COMPILER).
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
