package dev.nqueens.job;

import dev.nqueens.export.ReportExporter;
import dev.nqueens.failure.DiskFull;
import dev.nqueens.failure.Failure;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.store.Database;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobExecutionException;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import org.springframework.util.ExceptionTypeFilter;

/**
 * What a run that ended says of itself, in the product's words: why it failed, what it found and
 * put right, how far the sizes it did not finish have got; and, for a run that did not complete,
 * the export of what it published all the same.
 */
@Component
class RunReport {

    /** Batch's record of a stop, as the failure or one of its causes. */
    private static final ExceptionTypeFilter INTERRUPTION =
            new ExceptionTypeFilter(List.of(JobInterruptedException.class), List.of(), false);

    private final RunControl runControl;
    private final WorkProgress workProgress;
    private final SizePublisher publisher;
    private final ReportExporter exporter;
    private final NqueensProperties properties;
    private final Environment environment;
    private final ProgressReporter progress;

    RunReport(
            RunControl runControl,
            WorkProgress workProgress,
            SizePublisher publisher,
            ReportExporter exporter,
            NqueensProperties properties,
            Environment environment,
            ProgressReporter progress) {
        this.runControl = runControl;
        this.workProgress = workProgress;
        this.publisher = publisher;
        this.exporter = exporter;
        this.properties = properties;
        this.environment = environment;
        this.progress = progress;
    }

    /**
     * Why the execution failed: Batch's own summary of a failed partitioned step ("Partition
     * handler returned an unsuccessful step") is left out, since the partitions' failures say why,
     * and a lost connection says so.
     */
    List<String> failuresOf(JobExecution execution) {
        List<String> diskFull = execution.getAllFailureExceptions().stream()
                .filter(DiskFull::isCause)
                .map(this::diskFull)
                .distinct()
                .toList();
        if (!diskFull.isEmpty()) {
            // What a full disk set off (Batch failing to record the partition's end) says nothing more.
            return diskFull;
        }
        return execution.getAllFailureExceptions().stream()
                .filter(failure -> !interruption(failure))
                .filter(failure -> failure.getClass() != JobExecutionException.class)
                .map(failure -> LostDatabase.isCause(failure)
                        ? "lost the database: " + Failure.rootMessage(failure)
                        : Failure.rootMessage(failure))
                .distinct()
                .toList();
    }

    /** What went wrong and was put right along the way, beyond what {@code failures} already say. */
    List<String> notes(JobExecution execution, List<String> failures) {
        return publisher.failures(execution).stream()
                .filter(note -> failures.stream().noneMatch(failure -> failure.contains(note)))
                .toList();
    }

    /**
     * A run that did not complete skipped its export step, but the sizes it published are complete
     * and checked: they are exported all the same (the files it removes named on the console); a
     * failure to is added to {@code failures}.
     */
    void exportWhatWasPublished(List<String> failures) {
        Path folder = Path.of(properties.outputDir());
        try {
            exporter.exportAll(folder).removal(folder).ifPresent(progress::line);
        } catch (RuntimeException e) {
            failures.add(
                    DiskFull.isCause(e)
                            ? diskFull(e)
                            : "the export of the published sizes failed: " + Failure.rootMessage(e));
        }
    }

    /** The sizes of the plan that are still not published, with their progress before and after the run. */
    List<NightlyRun.SizeProgress> unfinished(
            JobExecution execution, List<SizePlan> plan, Map<Integer, WorkProgress.Progress> before) {
        Set<Integer> published =
                runControl.publishedByInstance(execution.getJobInstance().getInstanceId());
        List<NightlyRun.SizeProgress> sizes = new ArrayList<>();
        for (SizePlan size : plan) {
            if (!size.computes() || published.contains(size.n())) {
                continue;
            }
            Optional<WorkProgress.Progress> now = workProgress.of(size);
            WorkProgress.Progress then = before.get(size.n());
            sizes.add(new NightlyRun.SizeProgress(
                    size.n(),
                    then == null ? 0 : then.fraction(),
                    now.map(WorkProgress.Progress::fraction).orElse(0.0),
                    now.map(WorkProgress.Progress::description).orElse("")));
        }
        return sizes;
    }

    /**
     * A full disk, in one line naming what to free: the export folder, the H2 file's device, or in
     * the database server's own words.
     */
    private String diskFull(Throwable failure) {
        return DiskFull.describe(
                failure, Database.of(environment, properties).h2File().map(file -> file.dataFile()));
    }

    /** Batch's record of a stop (the window closed, SIGTERM): the outcome says so, it is no failure. */
    private static boolean interruption(Throwable failure) {
        return INTERRUPTION.match(failure, true);
    }
}
