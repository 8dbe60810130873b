package dev.nqueens.web;

import dev.nqueens.job.NightlyStarts;
import dev.nqueens.query.LastRun;
import dev.nqueens.query.RunHistory;
import dev.nqueens.settings.NqueensProperties;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The only member of the {@code nightly} health group ({@code /actuator/health/nightly}). DOWN when
 * the latest run of the nightly job FAILED, with the reason; DOWN as well when a night is overdue
 * ({@link NightlyDue}): no run has finished its night (COMPLETED, or WINDOW CLOSED) since the
 * first scheduled time after the last one that did, plus the time window and a margin — a silent
 * scheduler is a failure too; and DOWN from the moment a night this process scheduled could not
 * start (the run lock not taken, the database not reached: {@link NightlyStarts}) until a run
 * finishes its night. Otherwise UP when the latest run completed, is running, or was
 * stopped on purpose (SIGTERM, Ctrl-C: the next run resumes it) or abandoned for a newer request;
 * UNKNOWN before the first run, until the first night after the database was created is overdue.
 * Read from the job repository at each request, so runs of other processes (cron, another
 * machine) count as well. Not part of the service's own health (see {@link WebConfiguration}).
 */
@Component
@Profile(Serve.PROFILE)
public class NightlyRunHealthIndicator implements HealthIndicator {

    /** The contributor's name, as derived from the bean name. */
    static final String NAME = "nightlyRun";

    private final RunHistory history;
    private final NightlyDue schedule;
    private final NightlyStarts starts;

    NightlyRunHealthIndicator(RunHistory history, NqueensProperties settings, NightlyStarts starts) {
        this.history = history;
        this.schedule = NightlyDue.of(settings.schedule());
        this.starts = starts;
    }

    @Override
    public Health health() {
        Optional<LastRun> last = history.lastRun();
        Optional<Instant> created =
                last.flatMap(LastRun::lastFinished).isPresent() ? Optional.empty() : history.databaseCreated();
        return of(last, created, starts.lastFailed(), schedule, Instant.now());
    }

    /**
     * The nightly health as of {@code now}.
     *
     * @param last the latest run, if there is one
     * @param databaseCreated when the schema was created, if known: the start of the wait for the
     *     first night when no run has finished one yet
     * @param failedStart the last scheduled night of this process that could not start, if one did
     *     not: DOWN from then until a run finishes its night
     * @param schedule when runs are due
     */
    public static Health of(
            Optional<LastRun> last,
            Optional<Instant> databaseCreated,
            Optional<NightlyStarts.FailedStart> failedStart,
            NightlyDue schedule,
            Instant now) {
        Optional<Instant> lastFinished = last.flatMap(LastRun::lastFinished);
        Optional<NightlyDue.Due> due = lastFinished
                .or(() -> databaseCreated)
                .flatMap(since ->
                        schedule.after(since, last.filter(LastRun::running).map(LastRun::started)));
        boolean overdue = due.filter(night -> night.missedAt(now)).isPresent();
        Optional<NightlyStarts.FailedStart> notStarted = failedStart.filter(failed ->
                lastFinished.filter(end -> end.isAfter(failed.failed())).isEmpty());
        if (last.isEmpty()) {
            Health.Builder health = overdue || notStarted.isPresent() ? Health.down() : Health.unknown();
            due.ifPresent(night -> health.withDetail("due", text(night.deadline())));
            if (notStarted.isPresent()) {
                withFailedStart(health, notStarted.get());
            } else {
                health.withDetail(
                        "reason",
                        overdue
                                ? "no run has completed since the database was created at "
                                        + text(databaseCreated.orElseThrow()) + "; " + missed(due.get())
                                : "no run yet");
            }
            return health.build();
        }
        LastRun run = last.get();
        Health.Builder health = run.failed() || overdue || notStarted.isPresent() ? Health.down() : Health.up();
        health.withDetail("run", run.run()).withDetail("status", run.status());
        if (run.started() != null) {
            health.withDetail("started", text(run.started()));
        }
        if (run.ended() != null) {
            health.withDetail("ended", text(run.ended()));
        }
        // Of a failed run and a failed start, the later one gives the reason.
        boolean startFailedLast = notStarted
                .filter(failed -> run.started() == null || !run.started().isAfter(failed.failed()))
                .isPresent();
        if (run.failed() && !startFailedLast) {
            health.withDetail("reason", run.reason().isEmpty() ? "the run failed" : run.reason());
        } else if (notStarted.isPresent()) {
            withFailedStart(health, notStarted.get());
        } else if (overdue) {
            health.withDetail(
                    "reason",
                    lastFinished
                                    .map(end -> "the last run to complete its night ended at " + text(end))
                                    .orElse("no run has completed its night since the database was created at "
                                            + databaseCreated
                                                    .map(NightlyRunHealthIndicator::text)
                                                    .orElse("?"))
                            + "; "
                            + missed(due.get()));
        }
        run.lastCompleted().ifPresent(time -> health.withDetail("lastCompleted", text(time)));
        due.ifPresent(night -> health.withDetail("due", text(night.deadline())));
        return health.build();
    }

    /** Names the night that could not start, and why, as the reason. */
    private static void withFailedStart(Health.Builder health, NightlyStarts.FailedStart failed) {
        health.withDetail(
                "reason",
                "the run scheduled for " + text(failed.scheduled()) + " could not start at " + text(failed.failed())
                        + ": " + failed.reason());
        health.withDetail("failedStart", text(failed.failed()));
    }

    private static String missed(NightlyDue.Due night) {
        return "the run scheduled for " + text(night.scheduled()) + " should have ended by " + text(night.deadline());
    }

    private static String text(Instant time) {
        return time.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
