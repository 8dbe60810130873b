package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.SettingsLoader;
import dev.nqueens.settings.StorageLimits;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.core.BatchStatus;
import org.springframework.scheduling.support.SimpleTriggerContext;

/**
 * The nightly schedule: its times across both daylight-saving changes (no night skipped, none
 * doubled), a night keyed by its scheduled time and started at it, a time passed during a run not
 * made up, a failed start recorded, a stop, and the schedule named as written. Time is a clock the
 * tests set: they wait for the scheduler's events, never for a time of day.
 */
class NightlySchedulerTests {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId UTC = ZoneOffset.UTC;
    /** How long before its time the tests set the clock to wait for a night: the scheduler waits that long. */
    private static final Duration AHEAD = Duration.ofMillis(20);

    /** 2026-03-29: 02:00 → 03:00 in Berlin; 02:30 does not exist that night. */
    @Test
    void aTimeThatDoesNotExistOnTheNightTheClocksGoForwardRunsOnceAfterTheJump() {
        List<Night> nights = nights("30 2 * * *", BERLIN, "2026-03-27T12:00+01:00", 4, Duration.ofSeconds(5));
        assertThat(nights)
                .extracting(Night::start)
                .containsExactly(
                        instant("2026-03-28T02:30+01:00"),
                        instant("2026-03-29T03:30+02:00"),
                        instant("2026-03-30T02:30+02:00"),
                        instant("2026-03-31T02:30+02:00"));
        assertThat(nights)
                .extracting(Night::key)
                .extracting(LocalDateTime::toString)
                .containsExactly("2026-03-28T02:30", "2026-03-29T02:30", "2026-03-30T02:30", "2026-03-31T02:30");
        // The default time, 02:00, runs at the jump.
        assertThat(nights("0 2 * * *", BERLIN, "2026-03-28T12:00+01:00", 2, Duration.ofSeconds(5)))
                .extracting(Night::start)
                .containsExactly(instant("2026-03-29T03:00+02:00"), instant("2026-03-30T02:00+02:00"));
    }

    /** 2026-10-25: 03:00 → 02:00 in Berlin; 02:30 occurs twice that night, the first time at +02:00. */
    @Test
    void aTimeThatOccursTwiceOnTheNightTheClocksGoBackRunsOnce() {
        List<Instant> expected = List.of(
                instant("2026-10-24T02:30+02:00"),
                instant("2026-10-25T02:30+02:00"),
                instant("2026-10-26T02:30+01:00"),
                instant("2026-10-27T02:30+01:00"));
        // A quick night ends before the clocks go back; a 40-minute one in the repeated hour, before 02:30 comes again.
        for (Duration night : List.of(Duration.ofSeconds(5), Duration.ofMinutes(40))) {
            List<Night> nights = nights("30 2 * * *", BERLIN, "2026-10-23T12:00+02:00", 4, night);
            assertThat(nights)
                    .as("nights of %s", night)
                    .extracting(Night::start)
                    .containsExactlyElementsOf(expected);
            assertThat(nights)
                    .extracting(Night::key)
                    .extracting(LocalDateTime::toString)
                    .containsExactly("2026-10-24T02:30", "2026-10-25T02:30", "2026-10-26T02:30", "2026-10-27T02:30");
        }
    }

    @Test
    void theDefaultScheduleRunsEveryNightAtTwoInItsZone() {
        assertThat(nights("0 2 * * *", UTC, "2026-12-01T02:00Z", 2, Duration.ofSeconds(5)))
                .extracting(Night::start)
                .containsExactly(instant("2026-12-02T02:00Z"), instant("2026-12-03T02:00Z"));
    }

    /** One run at a time: a night still running at the next time keeps that one from starting. */
    @Test
    void aTimePassedWhileANightRanIsNotMadeUp() {
        assertThat(nights("0 2 * * *", UTC, "2026-12-01T01:00Z", 2, Duration.ofHours(25)))
                .extracting(Night::start)
                .containsExactly(instant("2026-12-01T02:00Z"), instant("2026-12-03T02:00Z"));
    }

    /**
     * Through the scheduler: each night runs when the clock reaches its time, keyed by its local
     * time, its window opening at that time, and the log says so. Each night moves the clock to
     * just before the next one's time (as if it lasted that long), so nothing waits long. (Across
     * a daylight-saving change the clock cannot be moved so: the tests above give the times.)
     */
    @Test
    void eachNightStartsAtItsTimeKeyedByItsLocalTime() {
        ZoneId newYork = ZoneId.of("America/New_York");
        List<Instant> times = List.of(
                instant("2026-12-01T02:00-05:00"),
                instant("2026-12-02T02:00-05:00"),
                instant("2026-12-03T02:00-05:00"));
        SetClock clock = new SetClock(times.get(0).minus(AHEAD));
        List<RunRequest> requests = new CopyOnWriteArrayList<>();
        List<Instant> startedAt = new CopyOnWriteArrayList<>();
        AtomicReference<NightlyScheduler> scheduler = new AtomicReference<>();
        scheduler.set(new NightlyScheduler(
                request -> {
                    startedAt.add(clock.instant());
                    requests.add(request);
                    if (requests.size() < times.size()) {
                        clock.set(times.get(requests.size()).minus(AHEAD));
                    } else {
                        scheduler.get().stop();
                    }
                    return completed();
                },
                new NightlyStarts(),
                clock));

        List<String> log = runUntilStopped(scheduler.get(), "0 2 * * *", newYork);

        assertThat(requests).extracting(RunRequest::start).containsExactlyElementsOf(times);
        assertThat(requests)
                .extracting(RunRequest::key)
                .extracting(LocalDateTime::toString)
                .containsExactly("2026-12-01T02:00", "2026-12-02T02:00", "2026-12-03T02:00");
        for (int i = 0; i < times.size(); i++) {
            assertThat(startedAt.get(i))
                    .as("night %d started at its time or after", i)
                    .isAfterOrEqualTo(times.get(i));
        }
        assertThat(log)
                .first()
                .asString()
                .endsWith(
                        " schedule '0 2 * * *' started (zone America/New_York);" + " next run at 2026-12-01 02:00:00");
        // Each line starts with the local time it was written (to the minute here: the machine may be slow).
        assertThat(log)
                .filteredOn(line -> line.contains(" run for "))
                .extracting(line -> line.substring(0, 16) + line.substring(19).replaceAll(" in .*", ""))
                .containsExactly(
                        "2026-12-01 02:00 run for 2026-12-01 02:00:00 started",
                        "2026-12-02 01:59 run for 2026-12-01 02:00:00 ended COMPLETED",
                        "2026-12-02 02:00 run for 2026-12-02 02:00:00 started",
                        "2026-12-03 01:59 run for 2026-12-02 02:00:00 ended COMPLETED",
                        "2026-12-03 02:00 run for 2026-12-03 02:00:00 started",
                        "2026-12-03 02:00 run for 2026-12-03 02:00:00 ended COMPLETED");
        assertThat(log).last().asString().endsWith(" schedule stopped");
    }

    /** A night that could not start is recorded with its time and reason, and the schedule goes on. */
    @Test
    void aNightThatCouldNotStartIsRecordedForTheHealth() {
        SetClock clock = new SetClock(instant("2026-12-01T02:00Z").minus(AHEAD));
        NightlyStarts starts = new NightlyStarts();
        List<LocalDateTime> attempts = new CopyOnWriteArrayList<>();
        AtomicReference<NightlyScheduler> scheduler = new AtomicReference<>();
        scheduler.set(new NightlyScheduler(
                request -> {
                    attempts.add(request.key());
                    if (attempts.size() == 1) {
                        clock.set(instant("2026-12-02T02:00Z").minus(AHEAD));
                    } else {
                        scheduler.get().stop();
                    }
                    throw new IllegalStateException("Timeout trying to lock table run_lock\nSQL statement: SELECT …");
                },
                starts,
                clock));

        List<String> log = runUntilStopped(scheduler.get(), "0 2 * * *", UTC);

        assertThat(attempts)
                .as("the schedule went on after a failed start")
                .extracting(LocalDateTime::toString)
                .containsExactly("2026-12-01T02:00", "2026-12-02T02:00");
        NightlyStarts.FailedStart failed = starts.lastFailed().orElseThrow();
        assertThat(failed.scheduled()).isEqualTo(instant("2026-12-02T02:00Z"));
        assertThat(failed.failed()).isAfterOrEqualTo(failed.scheduled());
        assertThat(failed.reason()).isEqualTo("Timeout trying to lock table run_lock");
        assertThat(log)
                .anyMatch(line -> line.endsWith(
                        " run for 2026-12-02 02:00:00 could not start: Timeout trying to lock table run_lock"));
    }

    /** A stop while the schedule waits ends it at once: no night runs. */
    @Test
    void aStopWhileWaitingEndsTheScheduleAtOnce() {
        NightlyScheduler scheduler = new NightlyScheduler(
                request -> {
                    throw new AssertionError("no run was due");
                },
                new NightlyStarts(),
                new SetClock(instant("2026-12-01T12:00Z")));
        Log log = new Log();
        Thread schedule = start(() -> scheduler.runForever(
                NqueensProperties.Schedule.cronExpression("0 2 * * *"),
                "0 2 * * *",
                UTC,
                NightlySchedulerTests::request,
                log.out));
        await().until(() -> log.lines().size() == 1);

        scheduler.stop();

        await().until(() -> !schedule.isAlive());
        assertThat(log.lines()).hasSize(2);
        assertThat(log.lines().get(0))
                .endsWith(" schedule '0 2 * * *' started (zone Z); next run at 2026-12-02 02:00:00");
        assertThat(log.lines().get(1)).endsWith(" schedule stopped");
    }

    /** A stop during a night lets it end (its job stops at a chunk boundary) and starts no other one. */
    @Test
    void aStopDuringANightEndsTheScheduleWhenTheNightHasEnded() {
        SetClock clock = new SetClock(instant("2026-12-01T02:00Z").minus(AHEAD));
        CountDownLatch nightGoing = new CountDownLatch(1);
        CountDownLatch nightMayEnd = new CountDownLatch(1);
        List<RunRequest> requests = new CopyOnWriteArrayList<>();
        NightlyScheduler scheduler = new NightlyScheduler(
                request -> {
                    requests.add(request);
                    clock.set(instant("2026-12-02T02:00Z").minus(AHEAD)); // the next night would be due at once
                    nightGoing.countDown();
                    try {
                        nightMayEnd.await();
                    } catch (InterruptedException e) {
                        throw new AssertionError("the night was interrupted", e);
                    }
                    return completed();
                },
                new NightlyStarts(),
                clock);
        Log log = new Log();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread schedule = start(() -> {
            try {
                scheduler.runForever(
                        NqueensProperties.Schedule.cronExpression("0 2 * * *"),
                        "0 2 * * *",
                        UTC,
                        NightlySchedulerTests::request,
                        log.out);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        try {
            await().until(() -> nightGoing.getCount() == 0);

            scheduler.stop();

            // The schedule's thread waits (timed) for the night, or it did not wait and ended.
            await().until(() -> schedule.getState() == Thread.State.TIMED_WAITING || !schedule.isAlive());
            assertThat(schedule.isAlive())
                    .as("the schedule waits for the night going")
                    .isTrue();
            assertThat(log.lines()).noneMatch(line -> line.endsWith(" schedule stopped"));
        } finally {
            nightMayEnd.countDown();
        }
        await().until(() -> !schedule.isAlive());
        assertThat(failure.get()).isNull();
        assertThat(requests).hasSize(1);
        assertThat(log.lines()).last().asString().endsWith(" schedule stopped");
        assertThat(log.lines())
                .filteredOn(line -> line.contains(" ended "))
                .singleElement()
                .asString()
                .contains("run for 2026-12-01 02:00:00 ended COMPLETED");
    }

    /** serve's log and schedule's output name the schedule as the settings write it, not Spring's six fields. */
    @Test
    void theScheduleIsNamedAsTheSettingsWriteIt(@TempDir Path workingDirectory) {
        for (String cron : List.of("0 2 * * *", "30 1 * * 1-5", "*/2 * * * * *")) {
            NqueensProperties settings = SettingsLoader.bind(SettingsLoader.load(new SettingsLoader.Sources(
                    workingDirectory, Map.of("NQUEENS_SCHEDULE_CRON", cron), Map.of(), List.of())));
            NightlyScheduler scheduler = new NightlyScheduler(
                    request -> {
                        throw new AssertionError("no run was due");
                    },
                    new NightlyStarts(),
                    new SetClock(instant("2026-12-01T12:00:00.500Z")));
            scheduler.stop(); // after its first line
            Log log = new Log();
            scheduler.runForever(settings, log.out);
            assertThat(log.lines()).first().asString().contains(" schedule '" + cron + "' started (zone ");
        }
    }

    /** A night the trigger gives: when it runs, and its local time (its key). */
    private record Night(Instant start, LocalDateTime key) {}

    /**
     * The first {@code count} nights the scheduler's trigger gives from {@code from} on, each
     * lasting {@code length}, as the scheduler feeds them back to it.
     */
    private static List<Night> nights(String cron, ZoneId zone, String from, int count, Duration length) {
        NightlyTrigger trigger = new NightlyTrigger(NqueensProperties.Schedule.cronExpression(cron), zone);
        SimpleTriggerContext context = new SimpleTriggerContext(Clock.fixed(instant(from), zone));
        List<Night> nights = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Instant next = trigger.nextExecution(context);
            nights.add(new Night(next, trigger.lastGiven()));
            context.update(next, next, next.plus(length));
        }
        return nights;
    }

    private static Instant instant(String offsetDateTime) {
        return OffsetDateTime.parse(offsetDateTime).toInstant();
    }

    private static RunRequest.Builder request() {
        return new RunRequest.Builder(BoardSizes.parse("1"), new StorageLimits(1, 1), false, Optional.empty());
    }

    private static NightlyRun.Outcome completed() {
        return new NightlyRun.Outcome(
                BatchStatus.COMPLETED,
                List.of(),
                false,
                List.of(),
                Duration.ZERO,
                false,
                Set.of(),
                List.of(),
                List.of(),
                0,
                false);
    }

    /** Runs the schedule until it stops by itself, at most a minute; returns its log. */
    private static List<String> runUntilStopped(NightlyScheduler scheduler, String cron, ZoneId zone) {
        Log log = new Log();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread schedule = start(() -> {
            try {
                scheduler.runForever(
                        NqueensProperties.Schedule.cronExpression(cron),
                        cron,
                        zone,
                        NightlySchedulerTests::request,
                        log.out);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        try {
            await().atMost(Duration.ofMinutes(1)).until(() -> !schedule.isAlive());
        } finally {
            scheduler.stop();
        }
        assertThat(failure.get()).isNull();
        return log.lines();
    }

    private static Thread start(Runnable runnable) {
        Thread thread = new Thread(runnable, "test-schedule");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** What the scheduler prints, line by line. */
    private static final class Log {

        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        List<String> lines() {
            return bytes.toString(StandardCharsets.UTF_8).lines().toList();
        }
    }

    /**
     * A clock set by the test, which runs on from the time it was set at the pace of
     * {@link System#nanoTime}, the clock the scheduler's waits are timed by.
     */
    private static final class SetClock extends Clock {

        private record Setting(Instant time, long nanos) {}

        private final AtomicReference<Setting> setting = new AtomicReference<>();

        SetClock(Instant time) {
            set(time);
        }

        void set(Instant time) {
            setting.set(new Setting(time, System.nanoTime()));
        }

        @Override
        public Instant instant() {
            Setting now = setting.get();
            return now.time().plusNanos(System.nanoTime() - now.nanos());
        }

        @Override
        public ZoneId getZone() {
            return UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            SetClock clock = this;
            return new Clock() {
                @Override
                public Instant instant() {
                    return clock.instant();
                }

                @Override
                public ZoneId getZone() {
                    return zone;
                }

                @Override
                public Clock withZone(ZoneId other) {
                    return clock.withZone(other);
                }
            };
        }
    }
}
