package dev.nqueens.job;

import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.ClassCounts;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.SolutionTables;
import dev.nqueens.store.StoredLevel;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Publishes each size the plan changed, in one transaction per size: counts what was computed,
 * checks it against the known values (a mismatch fails the job, and that size is not published),
 * swaps staged rows in or drops the rows a lower level does not keep, and writes the size's
 * {@code board_summary} row. Until then a size's previous summary and rows stay as they were.
 */
class PublishTasklet implements Tasklet {

    private final List<SizePlan> plan;
    private final SolutionStore store;
    private final KnownCounts known;
    private final TransactionTemplate perSize;

    PublishTasklet(List<SizePlan> plan, SolutionStore store, KnownCounts known,
            PlatformTransactionManager transactionManager) {
        this.plan = plan;
        this.store = store;
        this.known = known;
        this.perSize = new TransactionTemplate(transactionManager);
        this.perSize.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        List<StepExecution> steps = List.copyOf(
                chunkContext.getStepContext().getStepExecution().getJobExecution().getStepExecutions());
        for (SizePlan size : plan) {
            if (size.action() == SizePlan.Action.SKIP) {
                continue;
            }
            perSize.executeWithoutResult(status -> publish(size, wallTime(size.n(), steps)));
            contribution.incrementWriteCount(1);
        }
        return RepeatStatus.FINISHED;
    }

    private void publish(SizePlan size, long elapsedMs) {
        int n = size.n();
        if (size.action() == SizePlan.Action.DOWNGRADE) {
            store.dropRowsAbove(n, size.level());
            store.changeStoredLevel(n, size.level());
            return;
        }
        ClassCounts counts;
        if (size.level() == StoredLevel.COUNT) {
            int partitions = CountPartitioner.partitionCount(n);
            int done = store.countPartitionsDone(n, partitions);
            if (done != partitions) {
                throw new IllegalStateException("n=" + n + ": only " + done + " of " + partitions
                        + " sub-partitions are counted");
            }
            counts = store.sumCountPartitions(n, partitions);
        } else {
            counts = store.countStored(n, SolvePartitioner.tablesFor(size), size.level());
        }
        checkAgainstKnown(n, counts);
        if (SolvePartitioner.tablesFor(size) == SolutionTables.STAGED) {
            store.publishStaged(n, size.level());
        } else {
            store.dropRowsAbove(n, size.level());
        }
        store.clearCountPartitions(n);
        store.saveSummary(new BoardSummary(n, counts.totalSolutions(), counts.fundamentalSolutions(),
                counts.rot90Classes(), counts.rot180Classes(), counts.asymmetricClasses(), size.level(),
                SolutionStore.now(), elapsedMs));
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

    /** From the first start to the last end of this execution's worker steps of size {@code n}. */
    private static long wallTime(int n, List<StepExecution> steps) {
        LocalDateTime first = null;
        LocalDateTime last = null;
        for (StepExecution step : steps) {
            if (!NightlyJobConfiguration.isWorkerStep(step) || step.getStartTime() == null
                    || step.getEndTime() == null
                    || step.getExecutionContext().getInt(SolvePartitioner.SIZE_KEY, -1) != n) {
                continue;
            }
            first = first == null || step.getStartTime().isBefore(first) ? step.getStartTime() : first;
            last = last == null || step.getEndTime().isAfter(last) ? step.getEndTime() : last;
        }
        return first == null ? 0 : Duration.between(first, last).toMillis();
    }
}
