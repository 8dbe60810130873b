package dev.nqueens.job;

import dev.nqueens.settings.ClassCounts;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.Checkpoint;
import dev.nqueens.store.CountUnits;
import dev.nqueens.store.GenerationTables;
import dev.nqueens.store.Generations;
import dev.nqueens.store.SolutionStore;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Publishes one size of a run as soon as it is complete: the tables of the generation it was
 * computed into get the indexes built after the load and fresh statistics
 * ({@link GenerationTables#finish}), its counts (from those rows, or summed from its counted work
 * units) are checked against the published values — and, for a size counted twice, the two counts
 * of every unit against each other — then one small transaction writes its {@code board_summary}
 * row, which names that generation (the views show it from then on), and records that the run
 * published it. Afterwards the tables nothing shows any more (the generation it replaced, or what
 * a lower level does not keep) are dropped. No transaction copies or holds a whole size. A size is
 * published once per run: a restarted run does not publish it again.
 */
@Component
class SizePublisher {

    /** What {@link #publishIfComplete} did. */
    enum Result {
        PUBLISHED,
        NOT_COMPLETE,
        ALREADY_PUBLISHED
    }

    private final SolutionStore store;
    private final Generations generations;
    private final GenerationTables tables;
    private final CountUnits countUnits;
    private final ProgressReporter progress;
    /** A size with this many rows or more says when its indexes are being built: seconds to a minute. */
    static final long SAYS_INDEXING = 100_000;

    private final KnownCounts known;
    private final RunControl runControl;
    private final JobRepository jobRepository;
    private final TransactionTemplate perSize;
    /** Why a size of a run (job execution id, n) could not be published, for the publish step to report. */
    private final Map<String, String> failures = new ConcurrentHashMap<>();

    SizePublisher(
            SolutionStore store,
            Generations generations,
            GenerationTables tables,
            CountUnits countUnits,
            KnownCounts known,
            RunControl runControl,
            JobRepository jobRepository,
            ProgressReporter progress,
            PlatformTransactionManager transactionManager) {
        this.progress = progress;
        this.store = store;
        this.generations = generations;
        this.tables = tables;
        this.countUnits = countUnits;
        this.known = known;
        this.runControl = runControl;
        this.jobRepository = jobRepository;
        this.perSize = new TransactionTemplate(transactionManager);
        this.perSize.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /**
     * Publishes {@code size} for {@code execution} if all its work is done.
     *
     * @throws CountMismatchException if its counts disagree with the published values, or its two
     *     counts disagree (those units' counts are dropped, to be counted again); it is not published
     */
    synchronized Result publishIfComplete(JobExecution execution, SizePlan size) {
        try {
            return publish(execution, size);
        } catch (CountMismatchException e) {
            failures.put(execution.getId() + ":" + size.n(), e.getMessage());
            throw e;
        }
    }

    /** Why an earlier attempt of this run could not publish size {@code n}, if one failed. */
    Optional<String> failure(JobExecution execution, int n) {
        return Optional.ofNullable(failures.get(execution.getId() + ":" + n));
    }

    /** Every reason a size of this run could not be published when first tried. */
    List<String> failures(JobExecution execution) {
        String prefix = execution.getId() + ":";
        return failures.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .map(Map.Entry::getValue)
                .sorted()
                .toList();
    }

    private Result publish(JobExecution execution, SizePlan size) {
        int n = size.n();
        if (size.untouched()
                || runControl
                        .publishedByInstance(execution.getJobInstance().getInstanceId())
                        .contains(n)) {
            return Result.ALREADY_PUBLISHED;
        }
        if (size.action() == SizePlan.Action.DOWNGRADE) {
            perSize.executeWithoutResult(status -> {
                store.changeStoredLevel(n, size.level());
                runControl.published(execution.getId(), n);
            });
            deleteLeftovers(n);
            return Result.PUBLISHED;
        }
        ClassCounts counts;
        OptionalInt generation;
        long finishing = 0;
        if (size.level() == StoredLevel.COUNT) {
            CountUnits.Plan plan = countUnits.plan(n).orElse(null);
            if (plan == null || !allUnitsCounted(plan)) {
                return Result.NOT_COMPLETE;
            }
            if (plan.replicas() == 2) {
                rejectDisagreements(plan);
            }
            counts = countUnits.sum(n, 1);
            generation = OptionalInt.empty();
        } else {
            generation = generations.buildingIfAny(n);
            if (!solved(execution, size) || generation.isEmpty()) {
                return Result.NOT_COMPLETE;
            }
            finishing = System.nanoTime();
            Checkpoint stored = store.checkpoint(n, generation.getAsInt());
            long rows = size.level() == StoredLevel.ALL ? stored.solutions() : stored.classes();
            if (rows >= SAYS_INDEXING) {
                progress.indexing(
                        n,
                        String.format("all %,d %s", rows, size.level() == StoredLevel.ALL ? "solutions" : "classes"));
            }
            tables.finish(n, generation.getAsInt(), size.level());
            runControl.heartbeat(execution.getId());
            counts = store.countStored(n, generation.getAsInt(), size.level());
        }
        checkAgainstKnown(n, counts);
        // The partitions' time, and from the building of the indexes to this publication.
        long elapsedMs = wallTime(execution, size) + (finishing == 0 ? 0 : (System.nanoTime() - finishing) / 1_000_000);
        perSize.executeWithoutResult(status -> {
            countUnits.deletePlan(n);
            store.publish(
                    new BoardSummary(
                            n,
                            counts.totalSolutions(),
                            counts.fundamentalSolutions(),
                            counts.rot90Classes(),
                            counts.rot180Classes(),
                            counts.asymmetricClasses(),
                            size.level(),
                            SolutionStore.now(),
                            elapsedMs),
                    generation);
            runControl.published(execution.getId(), n);
        });
        deleteLeftovers(n);
        return Result.PUBLISHED;
    }

    /**
     * Drops what no published or building generation keeps of every size: after the sizes of a
     * run are published, what a run that was killed before it dropped them left behind.
     */
    synchronized void deleteLeftovers() {
        generations.leftovers().forEach(generations::drop);
    }

    private void deleteLeftovers(int n) {
        generations.leftovers(n).forEach(generations::drop);
    }

    private boolean allUnitsCounted(CountUnits.Plan plan) {
        for (int replica = 1; replica <= plan.replicas(); replica++) {
            BitSet counted = countUnits.countedUnits(plan.n(), replica);
            if (counted.cardinality() < plan.workUnits()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Two counts of a unit that differ: both are dropped, so the unit is counted again (by this run
     * if its counting step has not started yet, else by the next run: its partitions are handed
     * out again), and the size is not published now; the message names the units and the workers.
     */
    private void rejectDisagreements(CountUnits.Plan plan) {
        int n = plan.n();
        List<CountUnits.Disagreement> disagreements = countUnits.disagreements(n);
        if (disagreements.isEmpty()) {
            return;
        }
        perSize.executeWithoutResult(status -> disagreements.forEach(d -> countUnits.forgetUnit(n, d.unitIndex())));
        throw new CountMismatchException("n=" + n + ": the two counts of " + disagreements.size()
                + " work unit(s) disagree, so both were dropped and they are counted again: "
                + disagreements.stream()
                        .limit(3)
                        .map(d -> "unit " + d.unitIndex() + " " + d.first().describe() + " by " + d.firstBy() + " but "
                                + d.second().describe() + " by " + d.secondBy())
                        .collect(Collectors.joining("; ")));
    }

    /** Whether the solve partition of a stored size has completed in this job instance. */
    private boolean solved(JobExecution execution, SizePlan size) {
        StepExecution last = jobRepository.getLastStepExecution(execution.getJobInstance(), size.partitionNamePrefix());
        return last != null && last.getStatus() == BatchStatus.COMPLETED;
    }

    private void checkAgainstKnown(int n, ClassCounts counts) {
        known.of(n).ifPresent(expected -> {
            ClassCounts wanted = expected.counts();
            if (!wanted.equals(counts)) {
                throw new CountMismatchException("n=" + n + ": computed " + counts.describe()
                        + ", but the known values are " + wanted.describe());
            }
        });
    }

    /**
     * The wall time the size's partitions took: in each execution of the job instance, from the
     * first start to the last end of its partitions, added up over the executions (a size can
     * span several nights). The caller adds the building of its tables' indexes.
     */
    private long wallTime(JobExecution current, SizePlan size) {
        String prefix = size.partitionNamePrefix();
        long total = 0;
        for (JobExecution execution : jobRepository.getJobExecutions(current.getJobInstance())) {
            LocalDateTime first = null;
            LocalDateTime last = null;
            for (StepExecution step : execution.getStepExecutions()) {
                if (!step.getStepName().startsWith(prefix) || step.getStartTime() == null) {
                    continue;
                }
                LocalDateTime end = step.getEndTime() == null ? LocalDateTime.now() : step.getEndTime();
                first = first == null || step.getStartTime().isBefore(first) ? step.getStartTime() : first;
                last = last == null || end.isAfter(last) ? end : last;
            }
            total += first == null ? 0 : Duration.between(first, last).toMillis();
        }
        return Math.max(0, total);
    }
}
