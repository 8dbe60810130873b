package dev.nqueens.export;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.springframework.util.StreamUtils;

/**
 * A report being written: the bytes go to a hidden temporary file beside the final one while
 * their SHA-256 is computed; {@link #commit()} renames it into place atomically, so a reader sees
 * the old complete file or the new complete file, never a part. When the final file already holds
 * exactly these bytes it is left as it is (the temporary file is dropped), so its modification
 * time, and the ETag a download server derives from it, stay.
 */
final class AtomicReportFile implements AutoCloseable {

    private final Path target;
    private final Path temporary;
    private final MessageDigest digest;
    private final OutputStream out;
    private boolean committed;

    AtomicReportFile(Path target) throws IOException {
        this.target = target;
        this.temporary = target.resolveSibling("." + target.getFileName() + ".partial");
        this.digest = Sha256.digest();
        this.out = new BufferedOutputStream(new DigestOutputStream(Files.newOutputStream(temporary), digest), 1 << 16);
    }

    /** The stream to write the report to; closing it is left to this file (Jackson closes what it writes to). */
    OutputStream stream() {
        return StreamUtils.nonClosing(out);
    }

    /** Flushes, renames into place unless the final file is already the same, and describes the file. */
    ManifestEntry commit() throws IOException {
        out.close();
        long bytes = Files.size(temporary);
        String sha256 = HexFormat.of().formatHex(digest.digest());
        if (holdsAlready(bytes, sha256)) {
            Files.delete(temporary);
        } else {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        committed = true;
        return new ManifestEntry(target.getFileName().toString(), bytes, sha256);
    }

    /** Whether the final file exists with this size and SHA-256 (the size is compared first: cheap). */
    private boolean holdsAlready(long bytes, String sha256) throws IOException {
        return Files.isRegularFile(target) && Files.size(target) == bytes && sha256.equals(Sha256.of(target));
    }

    /** Drops the temporary file unless committed. */
    @Override
    public void close() throws IOException {
        if (!committed) {
            out.close();
            Files.deleteIfExists(temporary);
        }
    }
}
