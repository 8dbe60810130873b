package dev.nqueens.job;

import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.GenerationTables;
import dev.nqueens.store.SolutionStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The work of a run, decided once when it starts under the run lock: the plan of a restarted
 * execution as that execution had it, or each size's action given what is published; the split of
 * its counted sizes into work units; and how far each of its sizes had got before it.
 */
@Component
class RunPlanner {

    /**
     * A run's work.
     *
     * @param plan what it does with each size
     * @param restarted whether it restarts an unfinished execution
     * @param before how far each size it computes had got before it started
     */
    record Prepared(List<SizePlan> plan, boolean restarted, Map<Integer, WorkProgress.Progress> before) {}

    private final SolutionStore store;
    private final GenerationTables tables;
    private final RunControl runControl;
    private final CountPlanner countPlanner;
    private final RunLock runLock;
    private final WorkProgress workProgress;
    private final ProgressReporter console;
    private final TransactionTemplate inOneTransaction;
    private final boolean counting;
    private final KnownCounts known;

    RunPlanner(
            SolutionStore store,
            GenerationTables tables,
            RunControl runControl,
            CountPlanner countPlanner,
            RunLock runLock,
            WorkProgress workProgress,
            ProgressReporter console,
            PlatformTransactionManager transactionManager,
            NqueensProperties settings,
            KnownCounts known) {
        this.counting = !settings.clusterMode();
        this.known = known;
        this.store = store;
        this.tables = tables;
        this.runControl = runControl;
        this.countPlanner = countPlanner;
        this.runLock = runLock;
        this.workProgress = workProgress;
        this.console = console;
        this.inOneTransaction = new TransactionTemplate(transactionManager);
    }

    /** The work of {@code request}, or of {@code unfinished}, which it restarts. */
    Prepared prepare(RunRequest request, Optional<JobExecution> unfinished) {
        // The views as this build writes them (a database of an earlier build keeps its views until then).
        tables.rebuildViews();
        List<SizePlan> plan = unfinished.map(RunParameters::planOf).orElseGet(() -> SizePlan.of(request, store));
        HeapCheck.check(plan, known, counting, Runtime.getRuntime().maxMemory());
        // A size an earlier night of this run published has no split any more: it must not get a new one.
        Set<Integer> publishedBefore = unfinished
                .map(last ->
                        runControl.publishedByInstance(last.getJobInstance().getInstanceId()))
                .orElse(Set.of());
        List<String> notes = inOneTransaction.execute(status -> {
            runLock.checkHeld();
            return countPlanner.prepare(plan.stream()
                    .filter(size -> !publishedBefore.contains(size.n()))
                    .toList());
        });
        notes.forEach(console::line);
        plan.stream().filter(size -> size.action() == SizePlan.Action.DOWNGRADE).forEach(this::sayWhatIsDropped);
        return new Prepared(plan, unfinished.isPresent(), workProgress.of(plan));
    }

    /** A size lowered on request: the line says which rows go (none if an earlier attempt lowered it already). */
    private void sayWhatIsDropped(SizePlan size) {
        store.summary(size.n())
                .filter(published -> published.stored() != size.level())
                .ifPresent(published -> {
                    long solutions = published.stored() == StoredLevel.ALL ? published.totalSolutions() : 0;
                    long classes = size.level() == StoredLevel.COUNT ? published.fundamentalSolutions() : 0;
                    console.line(String.format(
                            "  n=%d: lowered from %s to %s as asked: dropping %s",
                            size.n(), published.stored(), size.level(), dropped(solutions, classes)));
                });
    }

    private static String dropped(long solutions, long classes) {
        String rows = solutions == 0 ? "" : String.format("%,d stored solutions", solutions);
        if (classes > 0) {
            rows += (rows.isEmpty() ? "" : " and ") + String.format("%,d stored class representatives", classes);
        }
        return rows;
    }
}
