package dev.nqueens.cli;

import dev.nqueens.count.CountResult;
import dev.nqueens.count.CountingEngine;
import dev.nqueens.failure.ExitCode;
import dev.nqueens.job.ProgressReporter;
import dev.nqueens.settings.KnownCounts;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code count N [--threads T]}: counts one size with the counting engine, storing nothing, and
 * prints the counts, the time and the rate. It needs nothing started (no settings, no database, no
 * Spring), so the time is the engine's. Exits 1 when the result disagrees with the known values.
 */
@Command(
        name = "count",
        header = "Count one board size without storing anything; print the rate.",
        description = "The counting engine alone (no settings, no database): total, fundamental and the symmetry"
                + " split, checked against the published values (exit 1 if they disagree), the time and the rate.",
        footerHeading = "%nExample:%n",
        footer = "  ./nqueens count 18 --threads 2")
final class CountCommand extends Subcommand {

    static final Needs NEEDS = Needs.NOTHING;

    @Parameters(index = "0", paramLabel = "N", converter = Options.Size.class, description = "The board size, 1..25.")
    int size;

    @Option(
            names = "--threads",
            paramLabel = "T",
            converter = Options.Positive.class,
            description = "Threads, 1 or more (default: one per core).")
    Integer threads;

    @Override
    public Integer call() {
        int workers = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        Console console = nqueens.launch().console();
        return count(size, workers, console.out(), console.err());
    }

    static int count(int n, int workers, PrintStream out, PrintStream err) {
        out.printf(
                "Counting n = %d on %d thread(s), %,d work units; %s ...%n",
                n, workers, CountingEngine.workUnits(n).size(), CountingEngine.hostLayout());
        ProgressReporter progress = new ProgressReporter(out);
        long start = System.nanoTime();
        CountResult result = CountingEngine.countAll(
                n,
                workers,
                (done, total) -> progress.tick(
                        List.of(new ProgressReporter.SizeProgress(n, done, total, done + "/" + total + " work units")),
                        0,
                        1));
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(
                "n=%d: %,d solutions, %,d fundamental (rot90 %,d / rot180 %,d / asymmetric %,d)%n",
                n,
                result.total(),
                result.fundamental(),
                result.rot90Classes(),
                result.rot180Classes(),
                result.asymmetricClasses());
        out.printf(
                "elapsed %.2f s, %,.0f solutions per second on %d thread(s)%n",
                seconds, result.total() / seconds, workers);
        Optional<KnownCounts.Known> known = KnownCounts.load().of(n);
        if (known.isEmpty()) {
            out.printf("n=%d has no published value to check against%n", n);
            return ExitCode.OK;
        }
        KnownCounts.Known expected = known.get();
        CountResult wanted = new CountResult(
                expected.totalSolutions(),
                expected.fundamentalSolutions(),
                expected.rot90Classes(),
                expected.rot180Classes(),
                expected.asymmetricClasses());
        if (!wanted.equals(result)) {
            err.printf("nqueens: n=%d disagrees with the known values %s%n", n, wanted);
            return ExitCode.FAILED;
        }
        out.println("matches the known values");
        return ExitCode.OK;
    }
}
