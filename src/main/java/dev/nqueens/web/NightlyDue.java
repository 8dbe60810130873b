package dev.nqueens.web;

import dev.nqueens.settings.NqueensProperties;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Optional;
import org.springframework.scheduling.support.CronExpression;

/**
 * When the nightly job owes a finished run, from the schedule's settings: the run scheduled at a
 * time of {@code nqueens.schedule.cron} should have finished its night by that time plus
 * {@code nqueens.schedule.window} plus {@link #MARGIN}. Scheduled times are local times of the
 * schedule's zone, as {@code schedule} and {@code serve} start them. Counting from the end of the
 * last finished run, a daily schedule thus allows at most a day plus the window plus the margin
 * between two finished runs, and a weekday schedule its weekend as well.
 *
 * @param cron the schedule
 * @param zone its time zone
 * @param window how long a run may take new work, if limited
 */
public record NightlyDue(CronExpression cron, ZoneId zone, Optional<Duration> window) {

    /**
     * What a run may take beyond its scheduled time and window: starting (the context, a rebuild
     * of the H2 file after a kill), the last work unit or chunk after the window closed, the export;
     * without a window, all its work.
     */
    public static final Duration MARGIN = Duration.ofHours(1);

    /** The schedule {@code schedule} and {@code serve} run on. */
    public static NightlyDue of(NqueensProperties.Schedule schedule) {
        return new NightlyDue(schedule.cronExpression(), schedule.zoneId(), schedule.timeWindow());
    }

    /**
     * A night the job owes a finished run for.
     *
     * @param scheduled when its run is scheduled
     * @param deadline by when that run should have finished
     */
    public record Due(Instant scheduled, Instant deadline) {

        public boolean missedAt(Instant now) {
            return now.isAfter(deadline);
        }
    }

    /**
     * The first night after {@code since} (the end of the last finished run). Without a window a
     * run takes as long as its work: if that night's run is still going, it is on time until the
     * following scheduled time plus the margin (a run still going then keeps the next one from
     * starting).
     *
     * @param running when the run still going started, if one is
     * @return empty if the schedule has no later time
     */
    public Optional<Due> after(Instant since, Optional<Instant> running) {
        return next(since).map(scheduled -> {
            Instant deadline = scheduled.plus(window.orElse(Duration.ZERO)).plus(MARGIN);
            if (window.isEmpty()
                    && running.filter(start -> !start.isBefore(scheduled)).isPresent()) {
                deadline =
                        next(scheduled).map(following -> following.plus(MARGIN)).orElse(deadline);
            }
            return new Due(scheduled, deadline);
        });
    }

    private Optional<Instant> next(Instant after) {
        LocalDateTime next = cron.next(LocalDateTime.ofInstant(after, zone));
        return Optional.ofNullable(next).map(local -> local.atZone(zone).toInstant());
    }
}
