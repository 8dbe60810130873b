package dev.nqueens.web;

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
 * scheduler is a failure too. Otherwise UP when the latest run completed, is running, or was
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

    NightlyRunHealthIndicator(RunHistory history, NqueensProperties settings) {
        this.history = history;
        this.schedule = NightlyDue.of(settings.schedule());
    }

    @Override
    public Health health() {
        Optional<LastRun> last = history.lastRun();
        Optional<Instant> created = last.flatMap(LastRun::lastFinished).isPresent() ? Optional.empty()
                : history.databaseCreated();
        return of(last, created, schedule, Instant.now());
    }

    /**
     * The nightly health as of {@code now}.
     *
     * @param last the latest run, if there is one
     * @param databaseCreated when the schema was created, if known: the start of the wait for the
     *     first night when no run has finished one yet
     * @param schedule when runs are due
     */
    public static Health of(Optional<LastRun> last, Optional<Instant> databaseCreated, NightlyDue schedule,
            Instant now) {
        Optional<Instant> lastFinished = last.flatMap(LastRun::lastFinished);
        Optional<NightlyDue.Due> due = lastFinished.or(() -> databaseCreated)
                .flatMap(since -> schedule.after(since, last.filter(LastRun::running).map(LastRun::started)));
        boolean overdue = due.filter(night -> night.missedAt(now)).isPresent();
        if (last.isEmpty()) {
            Health.Builder health = overdue ? Health.down() : Health.unknown();
            due.ifPresent(night -> health.withDetail("due", text(night.deadline())));
            return health.withDetail("reason", overdue ? "no run has completed since the database was created at "
                    + text(databaseCreated.orElseThrow()) + "; " + missed(due.get()) : "no run yet").build();
        }
        LastRun run = last.get();
        Health.Builder health = run.failed() || overdue ? Health.down() : Health.up();
        health.withDetail("run", run.run()).withDetail("status", run.status());
        if (run.started() != null) {
            health.withDetail("started", text(run.started()));
        }
        if (run.ended() != null) {
            health.withDetail("ended", text(run.ended()));
        }
        if (run.failed()) {
            health.withDetail("reason", run.reason().isEmpty() ? "the run failed" : run.reason());
        } else if (overdue) {
            health.withDetail("reason", lastFinished.map(end -> "the last run to complete its night ended at "
                    + text(end)).orElse("no run has completed its night since the database was created at "
                            + databaseCreated.map(NightlyRunHealthIndicator::text).orElse("?")) + "; "
                    + missed(due.get()));
        }
        run.lastCompleted().ifPresent(time -> health.withDetail("lastCompleted", text(time)));
        due.ifPresent(night -> health.withDetail("due", text(night.deadline())));
        return health.build();
    }

    private static String missed(NightlyDue.Due night) {
        return "the run scheduled for " + text(night.scheduled()) + " should have ended by " + text(night.deadline());
    }

    private static String text(Instant time) {
        return time.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
