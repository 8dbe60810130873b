package dev.nqueens.job;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.TriggerContext;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.scheduling.support.CronTrigger;
import org.springframework.scheduling.support.SimpleTriggerContext;

/**
 * The times of the nightly schedule: Spring's {@link CronTrigger} taken on the local times of the
 * schedule's zone, each answer then placed in the zone. Spring's trigger in the zone itself skips
 * a night whose time falls in the hour the clocks skip, and runs a time the clocks pass twice
 * twice; a nightly job owes one run a night. On local times (given to the trigger as UTC, which
 * has no daylight saving) a time that does not exist that night runs as long after the jump as it
 * was due after it (02:30 at 03:30 when the clocks go from 02:00 to 03:00), and a time that
 * occurs twice runs once, at its first occurrence: the times {@code NightlyDue} expects.
 *
 * <p>As Spring's trigger does, the next time comes after the end of the last run: a time passed
 * while a run was still going is not made up.
 */
final class NightlyTrigger implements Trigger {

    private final CronTrigger localTimes;
    private final ZoneId zone;
    private volatile LocalDateTime lastGiven;

    NightlyTrigger(CronExpression cron, ZoneId zone) {
        this.localTimes = new CronTrigger(cron.toString(), ZoneOffset.UTC);
        this.zone = zone;
    }

    @Override
    public Instant nextExecution(TriggerContext context) {
        LocalDateTime next = nextLocalTime(context);
        lastGiven = next;
        return next == null ? null : next.atZone(zone).toInstant();
    }

    /** The local time of the last {@link #nextExecution} answer: the time the night is scheduled for. */
    LocalDateTime lastGiven() {
        return lastGiven;
    }

    /** The local time of the next run after {@code context}, or null if the cron has no later time. */
    LocalDateTime nextLocalTime(TriggerContext context) {
        SimpleTriggerContext local =
                new SimpleTriggerContext(Clock.fixed(local(context.getClock().instant()), ZoneOffset.UTC));
        local.update(
                local(context.lastScheduledExecution()),
                local(context.lastActualExecution()),
                local(context.lastCompletion()));
        Instant next = localTimes.nextExecution(local);
        return next == null ? null : LocalDateTime.ofInstant(next, ZoneOffset.UTC);
    }

    /** The zone's local time at {@code instant}, as the instant it would be in UTC. */
    private Instant local(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, zone).toInstant(ZoneOffset.UTC);
    }
}
