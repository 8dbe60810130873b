package dev.nqueens.job;

import dev.nqueens.settings.Durations;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prints the progress of a run at a human rate: at most one line per interval for the whole run,
 * naming each size in flight with how much of it is done, and an estimate of the time left; a line
 * when a size is published. Estimates follow a smoothed rate per size, so they do not swing with
 * each tick:
 *
 * <pre>
 *   12.0 s: n=15 25% (70,000/285,053 classes stored), n=18 42% (326/753 work units); 14 of 18 sizes done; about 18.4 s left
 *   n=15: published after 30.2 s
 * </pre>
 */
public final class ProgressReporter {

    static final Duration INTERVAL = Duration.ofSeconds(5);
    /** How much of a size's smoothed rate one interval's rate replaces. */
    private static final double SMOOTHING = 0.3;

    /**
     * How far one size has got.
     *
     * @param n the size
     * @param done the work done, in any measure
     * @param total the work in all, in that measure
     * @param description how to say it: {@code 70,000/285,053 classes stored}
     */
    public record SizeProgress(int n, long done, long total, String description) {

        double fraction() {
            return total == 0 ? 1 : Math.min(1, (double) done / total);
        }
    }

    /** A size's smoothed rate (fraction per second) and where it stood when last seen. */
    private record Rate(double perSecond, double fraction, long atNanos) {}

    private final PrintStream out;
    private final long intervalNanos;
    private final Map<Integer, Rate> rates = new ConcurrentHashMap<>();
    private volatile long startNanos = System.nanoTime();
    private volatile long lastLineNanos = startNanos;

    public ProgressReporter(PrintStream out) {
        this(out, INTERVAL);
    }

    public ProgressReporter(PrintStream out, Duration interval) {
        this.out = out;
        this.intervalNanos = interval.toNanos();
    }

    /** A run begins: elapsed times and estimates start again. */
    public void started() {
        rates.clear();
        startNanos = System.nanoTime();
        lastLineNanos = startNanos;
    }

    /**
     * The state of the sizes in flight; prints a line if the interval has passed since the last
     * one. Thread-safe, and cheap when no line is due.
     *
     * @param sizesDone sizes of the run already finished
     * @param sizesInAll sizes the run computes (a single-size count shows no tally)
     */
    public void tick(List<SizeProgress> inFlight, int sizesDone, int sizesInAll) {
        long now = System.nanoTime();
        long last = lastLineNanos;
        if (now - last < intervalNanos) {
            return;
        }
        synchronized (this) {
            if (lastLineNanos != last) {
                return;
            }
            lastLineNanos = now;
        }
        List<String> sizes = new ArrayList<>();
        double left = 0;
        for (SizeProgress size : inFlight) {
            sizes.add(String.format("n=%d %.0f%% (%s)", size.n(), 100 * size.fraction(), size.description()));
            left = Math.max(left, secondsLeft(size, now));
        }
        StringBuilder line = new StringBuilder("  ")
                .append(Durations.format((now - startNanos) / 1e9))
                .append(": ")
                .append(sizes.isEmpty() ? "waiting for work" : String.join(", ", sizes));
        if (sizesInAll > 1) {
            line.append("; ")
                    .append(sizesDone)
                    .append(" of ")
                    .append(sizesInAll)
                    .append(" sizes done");
        }
        if (left > 0) {
            line.append("; about ").append(Durations.format(left)).append(" left");
        }
        out.println(line);
    }

    /** The time one size needs still, at its smoothed rate; 0 while it cannot be told. */
    private double secondsLeft(SizeProgress size, long now) {
        double fraction = size.fraction();
        Rate before = rates.get(size.n());
        if (before == null) {
            rates.put(size.n(), new Rate(0, fraction, now));
            return 0;
        }
        double seconds = (now - before.atNanos()) / 1e9;
        double rate = seconds <= 0 ? before.perSecond() : (fraction - before.fraction()) / seconds;
        double smoothed = before.perSecond() == 0 ? rate : before.perSecond() + SMOOTHING * (rate - before.perSecond());
        rates.put(size.n(), new Rate(smoothed, fraction, now));
        return smoothed > 0 ? (1 - fraction) / smoothed : 0;
    }

    /** Says that size {@code n} is published. */
    /** A size's rows are all stored: the indexes built after the load come next (a while for millions of rows). */
    public void indexing(int n, String rows) {
        out.printf(
                "  n=%d: %s stored after %s; building its indexes%n",
                n, rows, Durations.format((System.nanoTime() - startNanos) / 1e9));
    }

    public void published(int n) {
        rates.remove(n);
        out.printf("  n=%d: published after %s%n", n, Durations.format((System.nanoTime() - startNanos) / 1e9));
    }

    /** Prints one line about the run. */
    public void line(String text) {
        out.println(text);
    }
}
