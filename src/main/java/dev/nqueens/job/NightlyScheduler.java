package dev.nqueens.job;

import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.Durations;
import dev.nqueens.settings.NqueensProperties;
import java.io.PrintStream;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.scheduling.support.SimpleTriggerContext;

/**
 * Runs the nightly job on a cron schedule, one run at a time, on the thread of a Spring
 * {@link ThreadPoolTaskScheduler} of its own, while the calling thread waits for {@link #stop()}:
 * each run is its own job instance keyed by its scheduled time, and a night that was interrupted
 * is restarted by the next start (see {@link NightlyRun}). A night that could not start is logged
 * and recorded ({@link NightlyStarts}); the schedule goes on.
 */
public final class NightlyScheduler {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final Function<RunRequest, NightlyRun.Outcome> runs;
    private final NightlyStarts starts;
    private final Clock clock;
    private final CountDownLatch stopped = new CountDownLatch(1);

    /** @param runs carries out one run ({@link NightlyRun#run}, or a job started for the night) */
    public NightlyScheduler(Function<RunRequest, NightlyRun.Outcome> runs) {
        this(runs, new NightlyStarts());
    }

    /**
     * @param runs carries out one run
     * @param starts where a night that could not start is recorded (serve's nightly health reads it)
     */
    public NightlyScheduler(Function<RunRequest, NightlyRun.Outcome> runs, NightlyStarts starts) {
        this(runs, starts, Clock.systemDefaultZone());
    }

    /** @param clock what the schedule and its log read the time from */
    NightlyScheduler(Function<RunRequest, NightlyRun.Outcome> runs, NightlyStarts starts, Clock clock) {
        this.runs = runs;
        this.starts = starts;
        this.clock = clock;
    }

    /**
     * Runs the configured sizes and levels until {@link #stop()} on the configured schedule: cron,
     * zone and window of {@code nqueens.schedule.*}.
     */
    public void runForever(NqueensProperties properties, PrintStream out) {
        NqueensProperties.Schedule schedule = properties.schedule();
        runForever(
                schedule.cronExpression(),
                schedule.cron().strip(),
                schedule.zoneId(),
                () -> requestFor(properties),
                out);
    }

    /** What a scheduled run computes: the configured sizes and levels, in the configured window. */
    public static RunRequest.Builder requestFor(NqueensProperties properties) {
        return new RunRequest.Builder(
                BoardSizes.parse(properties.sizes()),
                properties.storageLimits(),
                false,
                properties.schedule().timeWindow());
    }

    /**
     * Runs until {@link #stop()}: at each scheduled time of {@code cron} in {@code zone} (as
     * {@link NightlyTrigger} gives them: no night skipped or doubled by a daylight-saving change),
     * runs, logs start and end. The log names the schedule as {@code written} in the settings
     * (crontab's five fields stay five). Returns once stopped and the run going, if any, has ended.
     */
    public void runForever(
            CronExpression cron, String written, ZoneId zone, Supplier<RunRequest.Builder> request, PrintStream out) {
        NightlyTrigger nights = new NightlyTrigger(cron, zone);
        LocalDateTime first = nights.nextLocalTime(new SimpleTriggerContext(clock));
        out.printf(
                "%s schedule '%s' started (zone %s); next run at %s%n",
                now(zone), written, zone, first == null ? "never" : TIME.format(first));
        AtomicReference<Throwable> error = new AtomicReference<>();
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setThreadNamePrefix("nqueens-schedule-");
        scheduler.setClock(clock);
        // An error (not an exception: those are a night that could not start) ends the schedule and is thrown.
        scheduler.setErrorHandler(failure -> {
            error.compareAndSet(null, failure);
            stop();
        });
        // Shut down, it lets the run going end (a stop ends it at a chunk boundary) and waits for it.
        scheduler.setWaitForTasksToCompleteOnShutdown(true);
        scheduler.setAwaitTerminationMillis(Long.MAX_VALUE);
        scheduler.initialize();
        ScheduledFuture<?> schedule = null;
        try {
            schedule = scheduler.schedule(() -> runNight(nights.lastGiven(), zone, request, out), nights);
            if (schedule != null) {
                stopped.await();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (schedule != null) {
                schedule.cancel(false); // the next night; the run going, if any, is not interrupted
            }
            scheduler.shutdown();
        }
        out.printf("%s schedule stopped%n", now(zone));
        if (error.get() instanceof Error failure) {
            throw failure;
        } else if (error.get() != null) {
            throw new IllegalStateException(error.get());
        }
    }

    /** Runs the night scheduled for {@code time}, logging its start and its end. */
    private void runNight(LocalDateTime time, ZoneId zone, Supplier<RunRequest.Builder> request, PrintStream out) {
        out.printf("%s run for %s started%n", now(zone), TIME.format(time));
        try {
            NightlyRun.Outcome outcome = runs.apply(request.get().at(time, zone));
            out.printf(
                    "%s run for %s ended %s in %s%s%s%n",
                    now(zone),
                    TIME.format(time),
                    outcome.windowClosed() ? "WINDOW CLOSED" : outcome.status(),
                    Durations.format(outcome.elapsed().toMillis() / 1000.0),
                    outcome.published().isEmpty() ? "" : "; published n = " + BoardSizes.of(outcome.published()),
                    outcome.failures().isEmpty() ? "" : ": " + String.join("; ", outcome.failures()));
        } catch (RuntimeException e) {
            starts.failed(time.atZone(zone).toInstant(), clock.instant(), e);
            out.printf("%s run for %s could not start: %s%n", now(zone), TIME.format(time), e.getMessage());
        }
    }

    /** Ends the schedule: at once while waiting, after the current run otherwise. */
    public void stop() {
        stopped.countDown();
    }

    private String now(ZoneId zone) {
        return TIME.format(LocalDateTime.now(clock.withZone(zone)));
    }
}
