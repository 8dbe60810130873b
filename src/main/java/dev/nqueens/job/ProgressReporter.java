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
        // Formatted only when a line is due: a size of thousands of units calls this for each.
        Track line = lineDue(n, done, total);
        if (line != null) {
            print(n, line, done, total, String.format("%,d/%,d %s", done, total, unit));
        }
    }

    /**
     * Reports that {@code work} of {@code totalWork} (in any measure) of size {@code n} is done,
     * described as {@code description} (e.g. {@code 1,234/2,048 work units}); the percentage and
     * the time left are those of the work.
     */
    public void report(int n, long work, long totalWork, String description) {
        Track line = lineDue(n, work, totalWork);
        if (line != null) {
            print(n, line, work, totalWork, description);
        }
    }

    /** The size's track as of the line to print now, or null if no line is due (or another thread prints it). */
    private Track lineDue(int n, long work, long totalWork) {
        long now = System.nanoTime();
        Track track = tracks.computeIfAbsent(n, k -> new Track(now, now, work));
        boolean finished = work >= totalWork;
        if (!finished && now - track.lastPrintNanos() < intervalNanos) {
            return null;
        }
        if (finished && now - track.startNanos() < intervalNanos) {
            return null;
        }
        Track printed = new Track(track.startNanos(), now, track.startDone());
        return tracks.replace(n, track, printed) ? printed : null;
    }

    private void print(int n, Track line, long work, long totalWork, String description) {
        boolean finished = work >= totalWork;
        double elapsed = (line.lastPrintNanos() - line.startNanos()) / 1e9;
        double fraction = totalWork == 0 ? 1 : (double) work / totalWork;
        double rate = (work - line.startDone()) / Math.max(elapsed, 1e-9);
        String left = rate > 0 && !finished ? String.format(", about %s left", seconds((totalWork - work) / rate)) : "";
        out.printf("  n=%d: %s (%.0f%%), %s elapsed%s%n", n, description, 100 * fraction, seconds(elapsed), left);
    }

    /** Prints one line about the run. */
    public void line(String text) {
        out.println(text);
    }

    static String seconds(double seconds) {
        return seconds < 100 ? String.format("%.1f s", seconds) : String.format("%d min %02d s",
                (long) seconds / 60, (long) seconds % 60);
    }
}
