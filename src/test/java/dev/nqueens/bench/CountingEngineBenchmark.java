package dev.nqueens.bench;

import dev.nqueens.count.CountResult;
import dev.nqueens.count.CountingEngine;
import dev.nqueens.count.WorkUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Average time to count a whole board size on one thread, unit by unit, with one reusable engine: the
 * number the batch job's throughput rests on. Run with {@link #main} (or any JMH runner); the
 * work units are built in the setup, so only counting is measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@Threads(1)
public class CountingEngineBenchmark {

    @Param({"12", "13", "14", "15", "16"})
    public int n;

    private List<WorkUnit> units;
    private CountingEngine engine;

    @Setup
    public void prepare() {
        units = CountingEngine.workUnits(n);
        engine = new CountingEngine(n);
    }

    @Benchmark
    public CountResult countWholeSize() {
        CountResult sum = CountResult.ZERO;
        for (WorkUnit unit : units) {
            sum = sum.plus(engine.count(unit));
        }
        return sum;
    }

    /**
     * Runs this benchmark with short settings: 1 fork, 2 warm-up and 3 measured iterations of
     * 2 s per size; the arguments, if any, replace the sizes (e.g. {@code 12 13}).
     */
    public static void main(String[] args) throws RunnerException {
        OptionsBuilder options = new OptionsBuilder();
        options.include(CountingEngineBenchmark.class.getSimpleName());
        if (args.length > 0) {
            options.param("n", args);
        }
        new Runner(options.build()).run();
    }
}
