package dev.nqueens.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Watches a run from its manager while the partitions of {@code solve} and {@code count} run,
 * wherever they run (this process's pool or the cluster's workers): every second it keeps the
 * run's heartbeat, publishes each size as soon as its work is complete (so a run that ends early
 * keeps what it finished), and prints one line of progress for the sizes being worked on, from
 * what the partitions have recorded in the database.
 */
class PartitionMonitor implements StepExecutionListener {

    static final Duration TICK = Duration.ofSeconds(1);

    private final SizePublisher publisher;
    private final WorkProgress workProgress;
    private final ProgressReporter progress;
    private final RunControl runControl;
    private final JdbcTemplate jdbc;
    /** Per manager step being watched: the latch that ends its watch, and the watching thread. */
    private final Map<Long, Watch> watching = new ConcurrentHashMap<>();
    /** Sizes whose publication failed in this process: the publish step reports them. */
    private final Set<Integer> failed = ConcurrentHashMap.newKeySet();

    PartitionMonitor(
            SizePublisher publisher,
            WorkProgress workProgress,
            ProgressReporter progress,
            RunControl runControl,
            JdbcTemplate jdbc) {
        this.publisher = publisher;
        this.workProgress = workProgress;
        this.progress = progress;
        this.runControl = runControl;
        this.jdbc = jdbc;
    }

    @Override
    public void beforeStep(StepExecution managerStep) {
        JobExecution execution = managerStep.getJobExecution();
        List<SizePlan> plan = RunParameters.planOf(execution);
        CountDownLatch stop = new CountDownLatch(1);
        Thread thread = new Thread(() -> watch(execution, plan, stop), "nqueens-monitor-" + managerStep.getStepName());
        thread.setDaemon(true);
        watching.put(managerStep.getId(), new Watch(stop, thread));
        thread.start();
    }

    /**
     * The thread is told to stop with a latch, never interrupted: an interrupt in the middle of
     * H2's file I/O closes the database file.
     */
    private record Watch(CountDownLatch stop, Thread thread) {}

    @Override
    public ExitStatus afterStep(StepExecution managerStep) {
        Watch watch = watching.remove(managerStep.getId());
        if (watch != null) {
            watch.stop().countDown();
            try {
                watch.thread().join(Duration.ofSeconds(60).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return managerStep.getExitStatus();
    }

    private void watch(JobExecution execution, List<SizePlan> plan, CountDownLatch stop) {
        Set<Integer> done = new HashSet<>();
        try {
            do {
                try {
                    tick(execution, plan, done, true);
                } catch (RuntimeException e) {
                    // The database may be busy or briefly unreachable: try again at the next tick.
                }
            } while (!stop.await(TICK.toMillis(), TimeUnit.MILLISECONDS));
            // The step has ended (completed, or stopped by the window): a size whose last units
            // finished since the last tick is published now, not on the next night.
            tick(execution, plan, done, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // The last look failed: the publish step or the next run publishes what is complete.
        }
    }

    private void tick(JobExecution execution, List<SizePlan> plan, Set<Integer> done, boolean reportProgress) {
        runControl.heartbeat(execution.getId());
        Set<String> running = runningPartitions(execution.getId());
        List<ProgressReporter.SizeProgress> inFlight = new ArrayList<>();
        int computing = 0;
        for (SizePlan size : plan) {
            if (size.untouched()) {
                continue;
            }
            computing++;
            if (done.contains(size.n()) || failed.contains(size.n())) {
                continue;
            }
            try {
                SizePublisher.Result result = publisher.publishIfComplete(execution, size);
                if (result == SizePublisher.Result.NOT_COMPLETE) {
                    if (reportProgress && isRunning(size, running)) {
                        workProgress
                                .of(size)
                                .ifPresent(p -> inFlight.add(new ProgressReporter.SizeProgress(
                                        size.n(), p.done(), p.total(), p.description())));
                    }
                } else {
                    done.add(size.n());
                    if (result == SizePublisher.Result.PUBLISHED) {
                        progress.published(size.n());
                    }
                }
            } catch (CountMismatchException e) {
                failed.add(size.n());
            }
        }
        if (reportProgress) {
            progress.tick(inFlight, done.size(), computing);
        }
    }

    /**
     * The names of the partitions of this execution that are running (e.g. {@code countPart:n18-p0003-of-0026});
     * those waiting for a thread or a worker are STARTING.
     */
    private Set<String> runningPartitions(long jobExecutionId) {
        return new HashSet<>(jdbc.queryForList("""
                SELECT step_name FROM batch_step_execution WHERE job_execution_id = ? AND status = 'STARTED'
                """, String.class, jobExecutionId));
    }

    /** Whether one of the size's partitions is running. */
    private static boolean isRunning(SizePlan size, Set<String> running) {
        String partitions = size.partitionNamePrefix();
        return running.stream().anyMatch(name -> name.startsWith(partitions));
    }
}
