package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.job.NightlyStarts;
import dev.nqueens.query.LastRun;
import dev.nqueens.settings.NqueensProperties;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class NightlyRunHealthIndicatorTests {

    private static final Instant START = Instant.parse("2026-12-01T02:00:00Z");
    private static final Instant END = Instant.parse("2026-12-01T02:00:40Z");
    private static final NightlyDue DAILY = schedule("0 2 * * *", "", "UTC");
    private static final Instant NOON = Instant.parse("2026-12-01T12:00:00Z");

    private static NightlyDue schedule(String cron, String window, String zone) {
        return NightlyDue.of(new NqueensProperties.Schedule(cron, window, zone, true));
    }

    private static LastRun run(String status, Instant started, Instant ended, Instant lastFinished) {
        return new LastRun(
                7, status, started, ended, "", Optional.ofNullable(lastFinished), Optional.ofNullable(lastFinished));
    }

    private static Health health(LastRun last, NightlyDue schedule, String now) {
        return NightlyRunHealthIndicator.of(
                Optional.of(last), Optional.empty(), Optional.empty(), schedule, Instant.parse(now));
    }

    @Test
    void aFailedRunIsDownWithItsReason() {
        Health health = NightlyRunHealthIndicator.of(
                Optional.of(new LastRun(
                        7,
                        "FAILED",
                        START,
                        START.plus(Duration.ofMinutes(1)),
                        "n=18 disagrees with the known values",
                        Optional.of(START.minus(Duration.ofDays(1))),
                        Optional.of(START.minus(Duration.ofDays(1))))),
                Optional.empty(),
                Optional.empty(),
                DAILY,
                NOON);
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails())
                .containsEntry("reason", "n=18 disagrees with the known values")
                .containsEntry("run", 7L)
                .containsEntry("lastCompleted", "2026-11-30T02:00:00Z")
                .containsEntry("due", "2026-12-01T03:00:00Z");
    }

    @ParameterizedTest
    @CsvSource({"COMPLETED", "STOPPED", "STARTED", "ABANDONED"})
    void otherwiseItIsUpWhileTheNextNightIsNotOverdue(String status) {
        Health health = health(run(status, START, null, END), DAILY, "2026-12-02T03:00:00Z");
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails())
                .containsEntry("status", status)
                .containsEntry("due", "2026-12-02T03:00:00Z")
                .doesNotContainKey("reason");
    }

    @Test
    void aSilentSchedulerIsDownOnceTheNextNightIsAnHourPastItsTime() {
        Health health = health(run("COMPLETED", START, END, END), DAILY, "2026-12-02T03:00:01Z");
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails())
                .containsEntry(
                        "reason",
                        "the last run to complete its night ended at"
                                + " 2026-12-01T02:00:40Z; the run scheduled for 2026-12-02T02:00:00Z should have ended by"
                                + " 2026-12-02T03:00:00Z")
                .containsEntry("status", "COMPLETED");
    }

    @Test
    void theWindowIsAddedToTheDeadline() {
        NightlyDue fiveHours = schedule("0 2 * * *", "5h", "UTC");
        assertThat(health(run("COMPLETED", START, END, END), fiveHours, "2026-12-02T08:00:00Z")
                        .getStatus())
                .isEqualTo(Status.UP);
        Health late = health(run("COMPLETED", START, END, END), fiveHours, "2026-12-02T08:00:01Z");
        assertThat(late.getStatus()).isEqualTo(Status.DOWN);
        assertThat(late.getDetails()).containsEntry("due", "2026-12-02T08:00:00Z");
    }

    @Test
    void aNightWhoseWindowClosedCountsAsFinished() {
        Instant closed = Instant.parse("2026-12-03T07:00:05Z");
        LastRun windowClosed = new LastRun(
                9, "STOPPED", Instant.parse("2026-12-03T02:00:01Z"), closed, "", Optional.of(END), Optional.of(closed));
        Health health = health(windowClosed, schedule("0 2 * * *", "5h", "UTC"), "2026-12-04T07:59:00Z");
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails())
                .containsEntry("due", "2026-12-04T08:00:00Z")
                .containsEntry("lastCompleted", "2026-12-01T02:00:40Z");
    }

    @Test
    void withoutAWindowTheNightsRunStillGoingIsOnTimeUntilTheFollowingNight() {
        LastRun going = new LastRun(
                8, "STARTED", Instant.parse("2026-12-02T02:00:01Z"), null, "", Optional.of(END), Optional.of(END));
        assertThat(health(going, DAILY, "2026-12-02T20:00:00Z").getStatus()).isEqualTo(Status.UP);
        Health stuck = health(going, DAILY, "2026-12-03T03:00:01Z");
        assertThat(stuck.getStatus()).isEqualTo(Status.DOWN);
        assertThat(stuck.getDetails()).containsEntry("due", "2026-12-03T03:00:00Z");

        Health windowPassed = health(going, schedule("0 2 * * *", "5h", "UTC"), "2026-12-02T08:00:01Z");
        assertThat(windowPassed.getStatus())
                .as("with a window, a run still going after it is late")
                .isEqualTo(Status.DOWN);
    }

    @Test
    void aWeekdayScheduleOwesNothingOverTheWeekend() {
        NightlyDue weekdays = schedule("0 2 * * 1-5", "", "UTC");
        Instant friday = Instant.parse("2026-12-04T02:00:40Z");
        assertThat(health(run("COMPLETED", friday, friday, friday), weekdays, "2026-12-07T02:59:00Z")
                        .getDetails())
                .containsEntry("due", "2026-12-07T03:00:00Z");
        assertThat(health(run("COMPLETED", friday, friday, friday), weekdays, "2026-12-07T02:59:00Z")
                        .getStatus())
                .isEqualTo(Status.UP);
    }

    @Test
    void scheduledTimesAreThoseOfTheSchedulesZone() {
        NightlyDue berlin = schedule("0 2 * * *", "", "Europe/Berlin");
        Health health = health(run("COMPLETED", START, END, END), berlin, "2026-12-02T02:00:01Z");
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails().get("reason").toString()).contains("the run scheduled for 2026-12-02T01:00:00Z");
        assertThat(ZoneId.of("Europe/Berlin").getRules().getOffset(START)).isEqualTo(ZoneOffset.ofHours(1));
    }

    @Test
    void beforeTheFirstRunItIsUnknownUntilTheFirstNightAfterTheDatabaseWasCreatedIsOverdue() {
        Optional<Instant> created = Optional.of(Instant.parse("2026-12-01T10:00:00Z"));
        Health waiting = NightlyRunHealthIndicator.of(
                Optional.empty(), created, Optional.empty(), DAILY, Instant.parse("2026-12-02T03:00:00Z"));
        assertThat(waiting.getStatus()).isEqualTo(Status.UNKNOWN);
        assertThat(waiting.getDetails())
                .containsEntry("reason", "no run yet")
                .containsEntry("due", "2026-12-02T03:00:00Z");

        Health silent = NightlyRunHealthIndicator.of(
                Optional.empty(), created, Optional.empty(), DAILY, Instant.parse("2026-12-02T03:00:01Z"));
        assertThat(silent.getStatus()).isEqualTo(Status.DOWN);
        assertThat(silent.getDetails())
                .containsEntry(
                        "reason",
                        "no run has completed since the database was created at"
                                + " 2026-12-01T10:00:00Z; the run scheduled for 2026-12-02T02:00:00Z should have ended by"
                                + " 2026-12-02T03:00:00Z");

        assertThat(NightlyRunHealthIndicator.of(Optional.empty(), Optional.empty(), Optional.empty(), DAILY, NOON)
                        .getStatus())
                .as("without the schema's age")
                .isEqualTo(Status.UNKNOWN);
    }

    @Test
    void runsThatNeverFinishedANightCountFromTheDatabasesCreation() {
        LastRun stopped = new LastRun(3, "STOPPED", START, END, "", Optional.empty(), Optional.empty());
        Health health = NightlyRunHealthIndicator.of(
                Optional.of(stopped),
                Optional.of(Instant.parse("2026-11-30T10:00:00Z")),
                Optional.empty(),
                DAILY,
                NOON);
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails().get("reason").toString())
                .startsWith("no run has completed its night since the"
                        + " database was created at 2026-11-30T10:00:00Z; the run scheduled for 2026-12-01T02:00:00Z");
    }

    /** The night of 2026-12-02 could not start: the run lock was held. */
    private static final NightlyStarts.FailedStart LOCKED = new NightlyStarts.FailedStart(
            Instant.parse("2026-12-02T02:00:00Z"),
            Instant.parse("2026-12-02T02:00:10Z"),
            "Timeout trying to lock table run_lock");

    @Test
    void aNightThatCouldNotStartIsDownNamingItUntilARunFinishesItsNight() {
        LastRun yesterday = run("COMPLETED", START, END, END);
        Instant justAfter = Instant.parse("2026-12-02T02:00:11Z");
        Health down = NightlyRunHealthIndicator.of(
                Optional.of(yesterday), Optional.empty(), Optional.of(LOCKED), DAILY, justAfter);
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
        assertThat(down.getDetails().get("reason"))
                .isEqualTo("the run scheduled for 2026-12-02T02:00:00Z could not"
                        + " start at 2026-12-02T02:00:10Z: Timeout trying to lock table run_lock");
        assertThat(down.getDetails().get("failedStart")).isEqualTo("2026-12-02T02:00:10Z");

        LastRun rerunning = run("STARTED", Instant.parse("2026-12-02T03:00:00Z"), null, END);
        assertThat(NightlyRunHealthIndicator.of(
                                Optional.of(rerunning),
                                Optional.empty(),
                                Optional.of(LOCKED),
                                DAILY,
                                Instant.parse("2026-12-02T03:00:05Z"))
                        .getStatus())
                .as("a run going on has not finished its night")
                .isEqualTo(Status.DOWN);

        Instant finished = Instant.parse("2026-12-02T03:01:00Z");
        LastRun rerun = run("COMPLETED", Instant.parse("2026-12-02T03:00:00Z"), finished, finished);
        assertThat(NightlyRunHealthIndicator.of(
                                Optional.of(rerun),
                                Optional.empty(),
                                Optional.of(LOCKED),
                                DAILY,
                                Instant.parse("2026-12-02T03:02:00Z"))
                        .getStatus())
                .isEqualTo(Status.UP);
    }

    @Test
    void ofAFailedRunAndAFailedStartTheLaterOneGivesTheReason() {
        LastRun failedBefore = new LastRun(
                7, "FAILED", START, END, "n=4 disagrees with the known values", Optional.empty(), Optional.empty());
        Health startFailedLast = NightlyRunHealthIndicator.of(
                Optional.of(failedBefore),
                Optional.empty(),
                Optional.of(LOCKED),
                DAILY,
                Instant.parse("2026-12-02T02:01:00Z"));
        assertThat(startFailedLast.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) startFailedLast.getDetails().get("reason")).contains("could not start");

        LastRun failedAfter = new LastRun(
                8,
                "FAILED",
                Instant.parse("2026-12-02T03:00:00Z"),
                Instant.parse("2026-12-02T03:00:30Z"),
                "n=4 disagrees with the known values",
                Optional.empty(),
                Optional.empty());
        Health runFailedLast = NightlyRunHealthIndicator.of(
                Optional.of(failedAfter),
                Optional.empty(),
                Optional.of(LOCKED),
                DAILY,
                Instant.parse("2026-12-02T03:01:00Z"));
        assertThat(runFailedLast.getStatus()).isEqualTo(Status.DOWN);
        assertThat(runFailedLast.getDetails().get("reason")).isEqualTo("n=4 disagrees with the known values");
    }

    @Test
    void aFirstNightThatCouldNotStartIsDownRatherThanUnknown() {
        Health health = NightlyRunHealthIndicator.of(
                Optional.empty(),
                Optional.of(START),
                Optional.of(LOCKED),
                DAILY,
                Instant.parse("2026-12-02T02:01:00Z"));
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("reason")).endsWith(": Timeout trying to lock table run_lock");
    }
}
