package dev.nqueens.job;

import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.ClassCounts;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.StoredLevel;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * For each size solved by this execution: counts what was stored, checks it against the known
 * values (a mismatch fails the job and writes no summary) and records the size's summary row.
 */
final class SummaryTasklet implements Tasklet {

    private final SolutionStore store;
    private final KnownCounts known;

    SummaryTasklet(SolutionStore store, KnownCounts known) {
        this.store = store;
        this.known = known;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        for (StepExecution worker : chunkContext.getStepContext().getStepExecution().getJobExecution()
                .getStepExecutions()) {
            if (!NightlyJobConfiguration.isSolveSizeStep(worker)) {
                continue;
            }
            int n = worker.getExecutionContext().getInt(SizePartitioner.SIZE_KEY);
            ClassCounts counts = store.countStored(n);
            checkAgainstKnown(n, counts);
            long elapsedMs = Duration.between(worker.getStartTime(), worker.getEndTime()).toMillis();
            store.saveSummary(new BoardSummary(n, counts.totalSolutions(), counts.fundamentalSolutions(),
                    counts.rot90Classes(), counts.rot180Classes(), counts.asymmetricClasses(), StoredLevel.ALL,
                    OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS), elapsedMs));
            contribution.incrementWriteCount(1);
        }
        return RepeatStatus.FINISHED;
    }

    private void checkAgainstKnown(int n, ClassCounts counts) {
        known.of(n).ifPresent(expected -> {
            ClassCounts wanted = new ClassCounts(expected.totalSolutions(), expected.fundamentalSolutions(),
                    expected.rot90Classes(), expected.rot180Classes(), expected.asymmetricClasses());
            if (!wanted.equals(counts)) {
                throw new CountMismatchException("n=" + n + ": stored " + counts.describe()
                        + ", but the known values are " + wanted.describe());
            }
        });
    }
}
