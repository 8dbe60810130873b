package dev.nqueens.web;

import dev.nqueens.query.LastRun;
import dev.nqueens.query.RunHistory;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The only member of the {@code nightly} health group ({@code /actuator/health/nightly}): DOWN when the latest run of
 * the nightly job FAILED, with the reason; UP when it completed, is running, or was stopped on
 * purpose (SIGTERM, Ctrl-C: the next run resumes it) or abandoned for a newer request; UNKNOWN
 * before the first run. Read from the job repository at each request, so runs of other processes
 * (cron, another machine) count as well. Not part of the service's own health (see
 * {@link WebConfiguration}).
 */
@Component
@Profile(Serve.PROFILE)
class NightlyRunHealthIndicator implements HealthIndicator {

    /** The contributor's name, as derived from the bean name. */
    static final String NAME = "nightlyRun";

    private final RunHistory history;

    NightlyRunHealthIndicator(RunHistory history) {
        this.history = history;
    }

    @Override
    public Health health() {
        return of(history.lastRun());
    }

    static Health of(Optional<LastRun> last) {
        if (last.isEmpty()) {
            return Health.unknown().withDetail("reason", "no run yet").build();
        }
        LastRun run = last.get();
        Health.Builder health = run.failed() ? Health.down() : Health.up();
        health.withDetail("run", run.run()).withDetail("status", run.status());
        if (run.started() != null) {
            health.withDetail("started", run.started().truncatedTo(ChronoUnit.SECONDS).toString());
        }
        if (run.ended() != null) {
            health.withDetail("ended", run.ended().truncatedTo(ChronoUnit.SECONDS).toString());
        }
        if (run.failed()) {
            health.withDetail("reason", run.reason().isEmpty() ? "the run failed" : run.reason());
        }
        run.lastCompleted().ifPresent(time -> health.withDetail("lastCompleted", time.truncatedTo(ChronoUnit.SECONDS)
                .toString()));
        return health.build();
    }
}
