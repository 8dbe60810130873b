package dev.nqueens.job;

import dev.nqueens.export.ReportExporter;
import java.nio.file.Path;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Exports the reports of everything stored and says which files it removed; the write count is
 * the number of files.
 */
final class ExportTasklet implements Tasklet {

    private final ReportExporter exporter;
    private final Path folder;
    private final ProgressReporter progress;

    ExportTasklet(ReportExporter exporter, Path folder, ProgressReporter progress) {
        this.exporter = exporter;
        this.folder = folder;
        this.progress = progress;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        ReportExporter.Exported exported = exporter.exportAll(folder);
        exported.removal(folder).ifPresent(progress::line);
        contribution.incrementWriteCount(exported.files().size());
        return RepeatStatus.FINISHED;
    }
}
