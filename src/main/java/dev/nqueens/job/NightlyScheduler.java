package dev.nqueens.job;

import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.Durations;
import dev.nqueens.settings.NqueensProperties;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.scheduling.support.CronExpression;

/**
 * Runs the nightly job in the foreground on a cron schedule, one run at a time: each run is its
 * own job instance keyed by its scheduled time, and a night that was interrupted is restarted
 * by the next start (see {@link NightlyRun}). {@link #stop()} ends the loop after the current run.
 * A night that could not start is logged and recorded ({@link NightlyStarts}); the loop goes on.
 */
public final class NightlyScheduler {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final Function<RunRequest, NightlyRun.Outcome> runs;
    private final NightlyStarts starts;
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
        this.runs = runs;
        this.starts = starts;
    }

    /**
     * Runs the configured sizes and levels until {@link #stop()} on the configured schedule: cron,
     * zone and window of {@code nqueens.schedule.*}.
     */
    public void runForever(NqueensProperties properties, PrintStream out) {
        NqueensProperties.Schedule schedule = properties.schedule();
        runForever(schedule.cronExpression(), schedule.cron().strip(), schedule.zoneId(), () -> requestFor(properties),
                out);
    }

    /** What a scheduled run computes: the configured sizes and levels, in the configured window. */
    public static RunRequest.Builder requestFor(NqueensProperties properties) {
        return new RunRequest.Builder(BoardSizes.parse(properties.sizes()), properties.storageLimits(), false,
                properties.schedule().timeWindow());
    }

    /**
     * Runs until {@link #stop()}: waits for each scheduled time of {@code cron} in {@code zone},
     * runs, logs start and end. Scheduled times are taken in the zone's local time, so a
     * daylight-saving change neither skips a night (a time that does not exist that night runs when
     * the clocks have jumped past it) nor doubles one (a time that occurs twice runs once). The log
     * names the schedule as {@code written} in the settings (crontab's five fields stay five).
     */
    public void runForever(CronExpression cron, String written, ZoneId zone, Supplier<RunRequest.Builder> request,
            PrintStream out) {
        LocalDateTime last = LocalDateTime.now(zone);
        out.printf("%s schedule '%s' started (zone %s); next run at %s%n", now(zone), written, zone,
                TIME.format(next(cron, last)));
        while (true) {
            LocalDateTime next = next(cron, max(last, LocalDateTime.now(zone)));
            if (next == null || waitUntil(next.atZone(zone).toInstant())) {
                out.printf("%s schedule stopped%n", now(zone));
                return;
            }
            last = next;
            out.printf("%s run for %s started%n", now(zone), TIME.format(next));
            try {
                NightlyRun.Outcome outcome = runs.apply(request.get().at(next, zone));
                out.printf("%s run for %s ended %s in %s%s%s%n", now(zone), TIME.format(next),
                        outcome.windowClosed() ? "WINDOW CLOSED" : outcome.status(),
                        Durations.format(outcome.elapsed().toMillis() / 1000.0),
                        outcome.published().isEmpty() ? "" : "; published n = " + BoardSizes.of(outcome.published()),
                        outcome.failures().isEmpty() ? "" : ": " + String.join("; ", outcome.failures()));
            } catch (RuntimeException e) {
                starts.failed(next.atZone(zone).toInstant(), Instant.now(), e);
                out.printf("%s run for %s could not start: %s%n", now(zone), TIME.format(next), e.getMessage());
            } finally {
                giveHeapBack();
            }
        }
    }

    /**
     * Gives the heap a night grew back to the system until the next night: full collections, after
     * which the serial collector shrinks the heap to the live data plus {@code MaxHeapFreeRatio},
     * lowered to 30 % for them (its default, 70 %, holds during the nights: fewer collections), down
     * to the initial heap (the launcher gives schedule and serve {@code -Xms32m}). Four of them: the
     * collector shrinks in steps (none at the first, then 10 %, 40 % and all of the excess). Where
     * the JVM does not let the ratios change, one collection does what the defaults allow.
     */
    static void giveHeapBack() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        try {
            String min = vm.getVMOption("MinHeapFreeRatio").getValue();
            String max = vm.getVMOption("MaxHeapFreeRatio").getValue();
            vm.setVMOption("MinHeapFreeRatio", "10");
            vm.setVMOption("MaxHeapFreeRatio", "30");
            try {
                for (int step = 0; step < 4; step++) {
                    System.gc();
                }
            } finally {
                vm.setVMOption("MaxHeapFreeRatio", max);
                vm.setVMOption("MinHeapFreeRatio", min);
            }
        } catch (RuntimeException e) {
            System.gc();
        }
    }

    /** The first scheduled local time strictly after {@code after}, or null if there is none. */
    static LocalDateTime next(CronExpression cron, LocalDateTime after) {
        return cron.next(after);
    }

    /** The instants of the first {@code count} runs after {@code from}, as {@link #runForever} starts them. */
    static List<ZonedDateTime> schedule(CronExpression cron, ZoneId zone, LocalDateTime from, int count) {
        List<ZonedDateTime> runs = new ArrayList<>();
        LocalDateTime last = from;
        for (int i = 0; i < count; i++) {
            last = next(cron, last);
            runs.add(last.atZone(zone));
        }
        return runs;
    }

    private static LocalDateTime max(LocalDateTime a, LocalDateTime b) {
        return a.isAfter(b) ? a : b;
    }

    /** Ends the loop: at once while waiting, after the current run otherwise. */
    public void stop() {
        stopped.countDown();
    }

    /**
     * Waits until the wall clock reads {@code time}: the wait is timed by the monotonic clock, which
     * can end it a little before (the run then started, and said so, a second early).
     *
     * @return true if stopped before the time came
     */
    private boolean waitUntil(Instant time) {
        try {
            for (Duration left; !(left = Duration.between(Instant.now(), time)).isNegative() && !left.isZero(); ) {
                if (stopped.await(Math.max(1, left.toMillis()), TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
            return stopped.getCount() == 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private static String now(ZoneId zone) {
        return TIME.format(LocalDateTime.now(zone));
    }
}
