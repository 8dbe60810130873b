package dev.nqueens.job;

import dev.nqueens.export.ManifestEntry;
import dev.nqueens.export.ReportExporter;
import java.nio.file.Path;
import java.util.List;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/** Exports the reports of everything stored; the write count is the number of files. */
final class ExportTasklet implements Tasklet {

    private final ReportExporter exporter;
    private final Path folder;

    ExportTasklet(ReportExporter exporter, Path folder) {
        this.exporter = exporter;
        this.folder = folder;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        List<ManifestEntry> files = exporter.exportAll(folder);
        contribution.incrementWriteCount(files.size());
        return RepeatStatus.FINISHED;
    }
}
