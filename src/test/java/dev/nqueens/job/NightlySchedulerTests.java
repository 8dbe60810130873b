package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.SettingsLoader;
import dev.nqueens.settings.StorageLimits;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.batch.core.BatchStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nightly schedule across daylight-saving changes: no night skipped, none doubled; a run never
 * starts before its scheduled time; and the schedule is named as written.
 */
class NightlySchedulerTests {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void aTimeThatDoesNotExistOnTheNightTheClocksGoForwardRunsOnceAfterTheJump() {
        // 2026-03-29: 02:00 → 03:00 in Berlin; 02:30 does not exist that night.
        List<ZonedDateTime> runs = NightlyScheduler.schedule(NqueensProperties.Schedule.cronExpression("30 2 * * *"), BERLIN,
                LocalDateTime.of(2026, 3, 27, 12, 0), 4);
        assertThat(runs).extracting(run -> run.toLocalDate().getDayOfMonth()).containsExactly(28, 29, 30, 31);
        assertThat(runs.get(1)).isEqualTo(ZonedDateTime.of(2026, 3, 29, 3, 30, 0, 0, BERLIN));
        assertThat(runs.get(2).toLocalTime()).hasToString("02:30");
    }

    @Test
    void aTimeThatOccursTwiceOnTheNightTheClocksGoBackRunsOnce() {
        // 2026-10-25: 03:00 → 02:00 in Berlin; 02:30 occurs twice that night.
        List<ZonedDateTime> runs = NightlyScheduler.schedule(NqueensProperties.Schedule.cronExpression("30 2 * * *"), BERLIN,
                LocalDateTime.of(2026, 10, 23, 12, 0), 4);
        assertThat(runs).extracting(run -> run.toLocalDate().getDayOfMonth()).containsExactly(24, 25, 26, 27);
        assertThat(runs.get(1).getOffset().getTotalSeconds()).isEqualTo(2 * 3600);
    }

    @Test
    void theDefaultScheduleRunsEveryNightAtTwoInItsZone() {
        List<ZonedDateTime> runs = NightlyScheduler.schedule(NqueensProperties.Schedule.cronExpression("0 2 * * *"), ZoneId.of("UTC"),
                LocalDateTime.of(2026, 12, 1, 2, 0), 2);
        assertThat(runs).containsExactly(ZonedDateTime.of(2026, 12, 2, 2, 0, 0, 0, ZoneId.of("UTC")),
                ZonedDateTime.of(2026, 12, 3, 2, 0, 0, 0, ZoneId.of("UTC")));
    }

    /** serve's log and schedule's output name the schedule as the settings write it, not Spring's six fields. */
    @Test
    void theScheduleIsNamedAsTheSettingsWriteIt(@TempDir Path workingDirectory) {
        for (String cron : List.of("0 2 * * *", "30 1 * * 1-5", "*/2 * * * * *")) {
            NqueensProperties settings = SettingsLoader.bind(SettingsLoader.load(new SettingsLoader.Sources(
                    workingDirectory, Map.of("NQUEENS_SCHEDULE_CRON", cron), Map.of(), List.of())));
            NightlyScheduler scheduler = new NightlyScheduler(request -> {
                throw new AssertionError("no run was due");
            });
            scheduler.stop(); // after its first line
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            scheduler.runForever(settings, new PrintStream(log, true, StandardCharsets.UTF_8));
            assertThat(log.toString(StandardCharsets.UTF_8).lines().findFirst()).get().asString()
                    .contains(" schedule '" + cron + "' started (zone ");
        }
    }

    @Test
    void aRunStartsAtItsTimeOrAfterNeverBefore() {
        List<String> early = new ArrayList<>();
        AtomicInteger runs = new AtomicInteger();
        NightlyScheduler[] scheduler = new NightlyScheduler[1];
        ZoneId utc = ZoneId.of("UTC");
        scheduler[0] = new NightlyScheduler(request -> {
            LocalDateTime now = LocalDateTime.now(utc);
            if (now.isBefore(request.key())) {
                early.add(now + " < " + request.key());
            }
            if (runs.incrementAndGet() == 3) {
                scheduler[0].stop();
            }
            return new NightlyRun.Outcome(BatchStatus.COMPLETED, List.of(), false,
                    List.of(), Duration.ZERO, false, Set.of(), List.of(), List.of(), 0, false);
        });
        scheduler[0].runForever(NqueensProperties.Schedule.cronExpression("* * * * * *"), "* * * * * *", utc,
                () -> new RunRequest.Builder(BoardSizes.parse("1"), new StorageLimits(1, 1), false,
                        Optional.empty()),
                new PrintStream(OutputStream.nullOutputStream()));
        assertThat(runs.get()).isEqualTo(3);
        assertThat(early).as("runs started before their time").isEmpty();
    }

    /** A night that could not start is recorded with its time and reason, and the schedule goes on. */
    @Test
    void aNightThatCouldNotStartIsRecordedForTheHealth() {
        NightlyStarts starts = new NightlyStarts();
        NightlyScheduler[] scheduler = new NightlyScheduler[1];
        List<LocalDateTime> attempts = new ArrayList<>();
        ZoneId utc = ZoneId.of("UTC");
        scheduler[0] = new NightlyScheduler(request -> {
            attempts.add(request.key());
            if (attempts.size() == 2) {
                scheduler[0].stop();
            }
            throw new IllegalStateException("Timeout trying to lock table run_lock\nSQL statement: SELECT …");
        }, starts);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        scheduler[0].runForever(NqueensProperties.Schedule.cronExpression("* * * * * *"), "* * * * * *", utc,
                () -> new RunRequest.Builder(BoardSizes.parse("1"), new StorageLimits(1, 1), false, Optional.empty()),
                new PrintStream(log, true, StandardCharsets.UTF_8));

        assertThat(attempts).as("the schedule went on after a failed start").hasSize(2);
        NightlyStarts.FailedStart failed = starts.lastFailed().orElseThrow();
        assertThat(failed.scheduled()).isEqualTo(attempts.get(1).atZone(utc).toInstant());
        assertThat(failed.failed()).isAfterOrEqualTo(failed.scheduled().minusSeconds(1));
        assertThat(failed.reason()).isEqualTo("Timeout trying to lock table run_lock");
        assertThat(log.toString(StandardCharsets.UTF_8)).contains(" could not start: Timeout trying to lock table");
    }
}
