package dev.nqueens.job;

import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.batch.core.job.JobExecutionException;
import org.springframework.batch.core.partition.StepExecutionSplitter;
import org.springframework.batch.core.step.StepExecution;

/**
 * Spring Batch's splitter hands the partitions over as a hash set, in no useful order; this one
 * hands them over by size — largest first, so the longest partitions start earliest, or smallest
 * first when the run has a time window, so that a night publishes as many sizes as it can — and
 * within a size in their partitioner's order ({@link #ORDER_KEY}). The thread pool or the cluster
 * queue takes them in that order.
 */
final class OrderedSplitter implements StepExecutionSplitter {

    /** ExecutionContext key: the position of the partition in its partitioner's order. */
    static final String ORDER_KEY = "order";

    private final StepExecutionSplitter splitter;
    private final RunControl runControl;

    OrderedSplitter(StepExecutionSplitter splitter, RunControl runControl) {
        this.splitter = splitter;
        this.runControl = runControl;
    }

    @Override
    public String getStepName() {
        return splitter.getStepName();
    }

    @Override
    public Set<StepExecution> split(StepExecution managerStep, int gridSize) throws JobExecutionException {
        boolean smallestFirst =
                runControl.deadline(managerStep.getJobExecutionId()).isPresent();
        Comparator<StepExecution> bySize = Comparator.comparingInt(
                partition -> partition.getExecutionContext().getInt(SolvePartitioner.SIZE_KEY, 0));
        Set<StepExecution> ordered = new LinkedHashSet<>();
        splitter.split(managerStep, gridSize).stream()
                .sorted((smallestFirst ? bySize : bySize.reversed())
                        .thenComparingInt(
                                partition -> partition.getExecutionContext().getInt(ORDER_KEY, 0))
                        .thenComparing(StepExecution::getStepName))
                .forEach(ordered::add);
        return ordered;
    }
}
