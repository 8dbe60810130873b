package dev.nqueens.job;

import java.util.ArrayList;
import java.util.List;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Publishes what the {@link PartitionMonitor} has not published yet once all partitions are done
 * (the sizes that completed in its last second, the downgrades), each size in its own transaction
 * (see {@link SizePublisher}), then deletes what no generation keeps any more (also what an
 * earlier run that was killed while it deleted left behind). A size that disagrees with the known
 * values fails the job after the others are published; until then a size's previous summary and
 * rows stay as they were.
 */
class PublishTasklet implements Tasklet {

    private final List<SizePlan> plan;
    private final SizePublisher publisher;

    PublishTasklet(List<SizePlan> plan, SizePublisher publisher) {
        this.plan = plan;
        this.publisher = publisher;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        JobExecution execution =
                chunkContext.getStepContext().getStepExecution().getJobExecution();
        List<String> failures = new ArrayList<>();
        for (SizePlan size : plan) {
            try {
                switch (publisher.publishIfComplete(execution, size)) {
                    case PUBLISHED -> contribution.incrementWriteCount(1);
                    case NOT_COMPLETE ->
                        failures.add(publisher
                                .failure(execution, size.n())
                                .orElse("n=" + size.n() + " is not complete after all its partitions ended"));
                    case ALREADY_PUBLISHED -> {}
                }
            } catch (CountMismatchException e) {
                failures.add(e.getMessage());
            }
        }
        publisher.deleteLeftovers();
        if (!failures.isEmpty()) {
            throw new CountMismatchException(String.join("; ", failures));
        }
        return RepeatStatus.FINISHED;
    }
}
