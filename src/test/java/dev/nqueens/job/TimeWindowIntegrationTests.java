package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.Application;
import dev.nqueens.Reference;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import dev.nqueens.count.CountingEngine;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StorageLimits;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.batch.core.BatchStatus;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A run's time window on a clock the test moves: the window closes at a chosen event, never after
 * a time the host's speed decides. Counted sizes, one partition each, on one thread, so the units
 * of a size are counted one after another and the window is read before each.
 */
@Order(3) // in-process: at the front, while the launcher makes its archive (see the pom)
@ResourceLock(TestResources.TEST_JVM)
@SpringBootTest(
        classes = Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {"nqueens.threads=1", "nqueens.count.partitions=1", "logging.file.name="})
@Import(TimeWindowIntegrationTests.Clocks.class)
class TimeWindowIntegrationTests {

    @TempDir
    static Path work;

    @DynamicPropertySource
    static void freshDatabase(DynamicPropertyRegistry registry) {
        TestDatabases.useH2(registry, work);
        registry.add("nqueens.output-dir", () -> work.resolve("output").toString());
    }

    @TestConfiguration
    static class Clocks {
        @Bean
        WindowClock windowClock() {
            return new WindowClock();
        }
    }

    @Autowired
    NightlyRun nightlyRun;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    WindowClock clock;

    /** The window open; each test counts sizes no other test of the class counts. */
    @BeforeEach
    void windowOpen() {
        clock.closeWhen(() -> false);
    }

    @Test
    void aWindowThatClosesInTheMiddleOfAPartitionEndsAtTheNextWorkUnit() {
        int n = 15;
        AtomicInteger reads = new AtomicInteger();
        clock.closeWhen(() -> reads.incrementAndGet() > 20);

        NightlyRun.Outcome night = nightlyRun.run(windowed(n + "", Optional.of(Duration.ofHours(1))));

        assertThat(night.status()).isEqualTo(BatchStatus.STOPPED);
        assertThat(night.windowClosed()).isTrue();
        assertThat(night.published()).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM count_unit WHERE n = " + n))
                .as("the units counted before the window closed are kept, the rest left")
                .isPositive()
                .isLessThan(units(n));

        clock.closeWhen(() -> false);
        NightlyRun.Outcome next = nightlyRun.run(windowed(n + "", Optional.empty()));

        assertThat(next.status()).isEqualTo(BatchStatus.COMPLETED);
        assertKnownCounts(n);
        assertThat(unitsCountedIn("countPart:n" + n + "-%"))
                .as("every unit counted once over both nights")
                .isEqualTo(units(n));
    }

    @Test
    void aSizeFinishedBeforeTheWindowClosedIsPublishedAndNotCountedAgain() {
        // The window closes at the first read after one of the sizes has all its units counted.
        clock.closeWhen(() -> count("""
                        SELECT COUNT(*) FROM board_summary WHERE n BETWEEN 11 AND 13""") > 0
                || jdbc
                        .queryForList(
                                "SELECT n, COUNT(*) AS units FROM count_unit WHERE n BETWEEN 11 AND 13 GROUP BY n")
                        .stream()
                        .anyMatch(row ->
                                ((Number) row.get("units")).longValue() == units(((Number) row.get("n")).intValue())));

        NightlyRun.Outcome night = nightlyRun.run(windowed("11-13", Optional.of(Duration.ofHours(1))));

        assertThat(night.status()).isEqualTo(BatchStatus.STOPPED);
        assertThat(night.windowClosed()).isTrue();
        List<Integer> published = new ArrayList<>();
        for (int n = 11; n <= 13; n++) {
            if (count("SELECT COUNT(*) FROM board_summary WHERE n = " + n) == 1) {
                published.add(n);
            } else {
                assertThat(count("SELECT COUNT(*) FROM count_unit WHERE n = " + n))
                        .as("n=%d: not published although all its units were counted", n)
                        .isLessThan(units(n));
            }
        }
        assertThat(published).as("the size finished first").hasSize(1);
        assertThat(night.published()).containsExactlyInAnyOrderElementsOf(published);

        clock.closeWhen(() -> false);
        NightlyRun.Outcome next = nightlyRun.run(windowed("11-13", Optional.empty()));

        assertThat(next.status()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(next.restarted()).as("the unfinished run goes on").isTrue();
        for (int n = 11; n <= 13; n++) {
            assertKnownCounts(n);
        }
        for (int n : published) {
            assertThat(count(String.format("""
                            SELECT COUNT(*) FROM batch_step_execution
                            WHERE step_name LIKE 'countPart:n%02d-%%'
                              AND job_execution_id = (SELECT MAX(job_execution_id) FROM batch_job_execution)""", n)))
                    .as("n=%d, published the night before, gets no partition", n)
                    .isZero();
        }
        assertThat(unitsCountedIn("countPart:n11-%")
                        + unitsCountedIn("countPart:n12-%")
                        + unitsCountedIn("countPart:n13-%"))
                .as("every unit counted once over both nights")
                .isEqualTo(units(11) + units(12) + units(13));
        assertThat(count("SELECT COUNT(*) FROM count_plan"))
                .as("no split left behind")
                .isZero();
    }

    /** Sizes {@code sizes}, counted only, with the window opening when the clock starts. */
    private static RunRequest windowed(String sizes, Optional<Duration> window) {
        return new RunRequest(
                BoardSizes.parse(sizes),
                new StorageLimits(10, 10),
                false,
                LocalDateTime.ofInstant(WindowClock.OPENS, ZoneOffset.UTC),
                WindowClock.OPENS,
                window);
    }

    private void assertKnownCounts(int n) {
        Reference.Counts expected = Reference.counts(n);
        Map<String, Object> summary = jdbc.queryForMap("SELECT * FROM board_summary WHERE n = ?", n);
        assertThat(summary).containsAllEntriesOf(expected.summaryColumns());
    }

    private long unitsCountedIn(String steps) {
        return count(
                "SELECT COALESCE(SUM(write_count), 0) FROM batch_step_execution WHERE step_name LIKE '" + steps + "'");
    }

    private long count(String sql) {
        Long value = jdbc.queryForObject(sql, Long.class);
        return value == null ? 0 : value;
    }

    private static long units(int n) {
        return CountingEngine.workUnits(n).size();
    }

    /**
     * A clock that stands at the hour a run's window opens until the test's condition holds, read
     * at each look at the clock, and from then on stands at the end of the window.
     */
    static final class WindowClock extends Clock {

        static final Instant OPENS = Instant.parse("2026-01-01T02:00:00Z");

        private volatile BooleanSupplier closes = () -> false;
        private volatile boolean closed;

        void closeWhen(BooleanSupplier condition) {
            closed = false;
            closes = condition;
        }

        @Override
        public Instant instant() {
            if (!closed && closes.getAsBoolean()) {
                closed = true;
            }
            return closed ? OPENS.plus(Duration.ofDays(1)) : OPENS;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
