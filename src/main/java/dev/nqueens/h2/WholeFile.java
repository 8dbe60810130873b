package dev.nqueens.h2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A small file another process reads while this one may be writing it (the holder marker, the URL a
 * night's JVM serves {@code serve} on, a night's outcome): written to a hidden {@code .NAME.partial}
 * beside it and renamed into place, so a reader finds the old file, the new one, or none, never a part.
 */
public final class WholeFile {

    private WholeFile() {
    }

    /** Writes {@code text} to {@code target} whole, replacing it. */
    public static void write(Path target, String text) throws IOException {
        Path partial = target.resolveSibling("." + target.getFileName() + ".partial");
        Files.writeString(partial, text);
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
