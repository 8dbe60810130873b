package dev.nqueens.cli;

import dev.nqueens.count.CountResult;
import dev.nqueens.count.CountingEngine;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.job.ProgressReporter;
import java.io.PrintStream;
import java.util.Optional;

/**
 * {@code count N [--threads T]}: counts one size with the counting engine, storing nothing, and
 * prints the counts, the time and the rate. Runs without Spring or a database, so the time is the
 * engine's. Exits 1 when the result disagrees with the known values.
 */
final class CountCommand {

    private CountCommand() {
    }

    static int run(int n, int threads, PrintStream out, PrintStream err) {
        int workers = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        out.printf("Counting n = %d on %d thread(s), %,d work units; %s ...%n", n, workers,
                CountingEngine.workUnits(n).size(), CountingEngine.hostLayout());
        ProgressReporter progress = new ProgressReporter(out);
        progress.started(n);
        long start = System.nanoTime();
        CountResult result = CountingEngine.countAll(n, workers, (done, total) -> progress.progress(n, done, total,
                "work units"));
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf("n=%d: %,d solutions, %,d fundamental (rot90 %,d / rot180 %,d / asymmetric %,d)%n", n,
                result.total(), result.fundamental(), result.rot90Classes(), result.rot180Classes(),
                result.asymmetricClasses());
        out.printf("elapsed %.2f s, %,.0f solutions per second on %d thread(s)%n", seconds, result.total() / seconds,
                workers);
        Optional<KnownCounts.Known> known = KnownCounts.load().of(n);
        if (known.isEmpty()) {
            out.printf("n=%d has no published value to check against%n", n);
            return ExitCodes.OK;
        }
        KnownCounts.Known expected = known.get();
        CountResult wanted = new CountResult(expected.totalSolutions(), expected.fundamentalSolutions(),
                expected.rot90Classes(), expected.rot180Classes(), expected.asymmetricClasses());
        if (!wanted.equals(result)) {
            err.printf("nqueens: n=%d disagrees with the known values %s%n", n, wanted);
            return ExitCodes.FAILED;
        }
        out.println("matches the known values");
        return ExitCodes.OK;
    }
}
