package dev.nqueens.export;

import dev.nqueens.failure.DiskFull;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** The reports could not be written to their folder; the files already complete stay as they were. */
public final class ExportException extends UncheckedIOException implements DiskFull.Place {

    private final transient Path folder;

    ExportException(Path folder, IOException cause) {
        super("cannot export to " + folder + ": " + cause.getMessage(), cause);
        this.folder = folder;
    }

    /** The export folder, as an absolute path. */
    public Path folder() {
        return folder.toAbsolutePath();
    }

    @Override
    public String place() {
        return "the export folder " + folder();
    }
}
