package dev.nqueens.job;

import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.stereotype.Component;

/**
 * Runs the nightly job in the foreground on a cron schedule, one run at a time: each run is its
 * own job instance keyed by its scheduled time, and a night that was interrupted is restarted
 * by the next start (see {@link NightlyRun}). {@link #stop()} ends the loop after the current run.
 */
@Component
public class NightlyScheduler {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final NightlyRun nightlyRun;
    private final CountDownLatch stopped = new CountDownLatch(1);

    NightlyScheduler(NightlyRun nightlyRun) {
        this.nightlyRun = nightlyRun;
    }

    /**
     * Parses a cron expression: Spring's six fields (second minute hour day month weekday), or
     * the five fields of crontab, which get second 0.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static CronExpression parse(String cron) {
        String expression = cron == null ? "" : cron.trim();
        if (expression.split("\\s+").length == 5) {
            expression = "0 " + expression;
        }
        try {
            return CronExpression.parse(expression);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid cron expression '" + cron + "': " + e.getMessage()
                    + " (five crontab fields, or six with seconds first; e.g. '0 2 * * *' is 02:00 every night)");
        }
    }

    /** Runs until {@link #stop()}: waits for each scheduled time, runs, logs start and end. */
    public void runForever(CronExpression cron, Supplier<RunRequest.Builder> request, PrintStream out) {
        out.printf("%s schedule '%s' started; next run at %s%n", now(), cron, TIME.format(cron.next(LocalDateTime.now())));
        while (true) {
            LocalDateTime next = cron.next(LocalDateTime.now());
            if (next == null || waitUntil(next)) {
                out.printf("%s schedule stopped%n", now());
                return;
            }
            out.printf("%s run for %s started%n", now(), TIME.format(next));
            try {
                NightlyRun.Outcome outcome = nightlyRun.run(request.get().key(next));
                out.printf("%s run for %s ended %s in %.1f s%s%n", now(), TIME.format(next), outcome.status(),
                        outcome.elapsed().toMillis() / 1000.0,
                        outcome.failures().isEmpty() ? "" : ": " + String.join("; ", outcome.failures()));
            } catch (RuntimeException e) {
                out.printf("%s run for %s could not start: %s%n", now(), TIME.format(next), e.getMessage());
            }
        }
    }

    /** Ends the loop: at once while waiting, after the current run otherwise. */
    public void stop() {
        stopped.countDown();
    }

    /** @return true if stopped before the time came */
    private boolean waitUntil(LocalDateTime time) {
        long millis = Math.max(0, Duration.between(LocalDateTime.now(), time).toMillis());
        try {
            return stopped.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private static String now() {
        return TIME.format(LocalDateTime.now());
    }
}
