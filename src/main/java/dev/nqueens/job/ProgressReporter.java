package dev.nqueens.job;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prints the progress of long sizes on the console at a human rate: a line per size at most every
 * {@link #INTERVAL} (and when it is done), with work done / total, percentage, elapsed time and
 * an estimate of the time left. Sizes that finish within the interval print nothing.
 */
public final class ProgressReporter {

    static final Duration INTERVAL = Duration.ofSeconds(5);

    private record Track(long startNanos, long lastPrintNanos, long startDone) {
    }

    private final PrintStream out;
    private final long intervalNanos;
    private final Map<Integer, Track> tracks = new ConcurrentHashMap<>();

    public ProgressReporter(PrintStream out) {
        this(out, INTERVAL);
    }

    public ProgressReporter(PrintStream out, Duration interval) {
        this.out = out;
        this.intervalNanos = interval.toNanos();
    }

    /** Marks the start of size {@code n}'s work (the first report also does). */
    public void started(int n) {
        long now = System.nanoTime();
        tracks.putIfAbsent(n, new Track(now, now, 0));
    }

    /**
     * Reports that {@code done} of {@code total} {@code unit}s of size {@code n} are finished.
     * Thread-safe; prints only when the interval has passed since the size's last line.
     */
    public void progress(int n, long done, long total, String unit) {
        long now = System.nanoTime();
        Track track = tracks.computeIfAbsent(n, k -> new Track(now, now, done));
        boolean finished = done >= total;
        if (!finished && now - track.lastPrintNanos() < intervalNanos) {
            return;
        }
        if (finished && now - track.startNanos() < intervalNanos) {
            return;
        }
        if (!tracks.replace(n, track, new Track(track.startNanos(), now, track.startDone()))) {
            return;
        }
        double elapsed = (now - track.startNanos()) / 1e9;
        double fraction = total == 0 ? 1 : (double) done / total;
        double rate = (done - track.startDone()) / Math.max(elapsed, 1e-9);
        String left = rate > 0 && !finished ? String.format(", about %s left", seconds((total - done) / rate)) : "";
        out.printf("  n=%d: %,d/%,d %s (%.0f%%), %s elapsed%s%n", n, done, total, unit, 100 * fraction,
                seconds(elapsed), left);
    }

    private static String seconds(double seconds) {
        return seconds < 100 ? String.format("%.1f s", seconds) : String.format("%d min %02d s",
                (long) seconds / 60, (long) seconds % 60);
    }
}
