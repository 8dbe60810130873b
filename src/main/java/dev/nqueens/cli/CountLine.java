package dev.nqueens.cli;

import dev.nqueens.settings.BoardSizes;
import java.io.PrintStream;
import java.util.Optional;

/**
 * A plain {@code count N [--threads T]} line, read without the full command-line parser: counting
 * needs neither Spring nor picocli, and loading them (about 0.9 s of CPU from the packaged jar)
 * would be a sixth of what counting n = 17 takes on one thread. Only lines whose meaning is
 * certain are read here, with the same rules as {@link Invocation}; any other line, valid or not,
 * goes to {@link Invocation#parse}, which reads it or explains what is wrong with it.
 *
 * @param size the board size
 * @param threads threads, 0 = one per core
 */
public record CountLine(int size, int threads) {

    private static final String THREADS = "--threads";

    /** The count to run, or empty if {@code args} is anything but a plain, valid count line. */
    public static Optional<CountLine> of(String[] args) {
        if (args.length == 0 || !Invocation.COUNT.equals(args[0])) {
            return Optional.empty();
        }
        String size;
        String threads = null;
        if (args.length == 2) {
            size = args[1];
        } else if (args.length == 3 && args[2].startsWith(THREADS + "=")) {
            size = args[1];
            threads = args[2].substring(THREADS.length() + 1);
        } else if (args.length == 4 && THREADS.equals(args[2])) {
            size = args[1];
            threads = args[3];
        } else if (args.length == 4 && THREADS.equals(args[1])) {
            size = args[3];
            threads = args[2];
        } else {
            return Optional.empty();
        }
        int n = oneSize(size);
        int t = threads == null ? 0 : positive(threads);
        return n > 0 && t >= 0 ? Optional.of(new CountLine(n, t)) : Optional.empty();
    }

    /** Counts, prints and checks, as {@code count} does; returns the exit code. */
    public int run(PrintStream out, PrintStream err) {
        return CountCommand.run(size, threads, out, err);
    }

    /** The one size {@code text} names, or 0. */
    private static int oneSize(String text) {
        if (!digits(text)) {
            return 0;
        }
        try {
            BoardSizes sizes = BoardSizes.parse(text);
            return sizes.sizes().size() == 1 ? sizes.sizes().get(0) : 0;
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    /** A whole number of threads >= 1, or -1. */
    private static int positive(String text) {
        if (!digits(text) || text.length() > 9) {
            return -1;
        }
        int value = Integer.parseInt(text);
        return value >= 1 ? value : -1;
    }

    private static boolean digits(String text) {
        if (text.isEmpty()) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
