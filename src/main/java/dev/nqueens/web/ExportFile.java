package dev.nqueens.web;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import org.springframework.core.io.AbstractResource;

/**
 * One version of an export file, opened: the body Spring MVC writes (whole, or the regions of a
 * {@code Range}) from this handle, never from whatever the name holds by the time the body is
 * written. It is opened before the response's headers are made and checked to be the version they
 * describe, so an export renaming a new file into place meanwhile never mixes two versions in one
 * response. Each {@link #getInputStream()} reads it from the start with a position of its own; the
 * handle is closed when the request completes.
 */
final class ExportFile extends AbstractResource implements Closeable {

    private static final int ATTEMPTS = 10;

    private final ExportFolder.Version version;
    private final FileChannel channel;

    private ExportFile(ExportFolder.Version version, FileChannel channel) {
        this.version = version;
        this.channel = channel;
    }

    /**
     * Opens the current version of file {@code name} of {@code folder}.
     *
     * @throws org.springframework.web.ErrorResponseException as {@link ExportFolder#current} does
     */
    static ExportFile open(ExportFolder folder, String name) throws IOException {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            ExportFolder.Version version = folder.current(name);
            FileChannel channel = open(version);
            if (ExportFolder.unchanged(version)) {
                return new ExportFile(version, channel);
            }
            channel.close(); // replaced between the look-up and the opening: look again
        }
        throw new IOException(name + " keeps changing");
    }

    /** Opens the file; one an export removed since it was looked up is not found, as if never there. */
    private static FileChannel open(ExportFolder.Version version) throws IOException {
        try {
            return FileChannel.open(version.path(), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw Problems.notFound("no export file is named '" + version.path().getFileName() + "'");
        }
    }

    /** Its strong ETag: {@code "<sha256>"}. */
    String etag() {
        return version.etag();
    }

    @Override
    public String getFilename() {
        return version.path().getFileName().toString();
    }

    @Override
    public String getDescription() {
        return "export file " + version.path();
    }

    @Override
    public long contentLength() {
        return version.bytes();
    }

    @Override
    public long lastModified() {
        return version.modifiedMillis();
    }

    @Override
    public boolean exists() {
        return true;
    }

    @Override
    public InputStream getInputStream() {
        // Read in blocks of Tomcat's write buffer (WebConfiguration); Spring copies in smaller ones.
        return new BufferedInputStream(new Reader(), 1 << 16) {
            /** All of {@code count} up to the end, past the buffer too: Spring skips to a range's start at once. */
            @Override
            public synchronized long skip(long count) throws IOException {
                long skipped = 0;
                for (long step; skipped < count && (step = super.skip(count - skipped)) > 0; ) {
                    skipped += step;
                }
                return skipped;
            }
        };
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** The version's bytes from the start, read at a position of its own; a skip moves it without reading. */
    private final class Reader extends InputStream {

        private long position;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            long left = version.bytes() - position;
            if (length == 0 || left <= 0) {
                return length == 0 ? 0 : -1;
            }
            int read = channel.read(ByteBuffer.wrap(buffer, offset, (int) Math.min(length, left)), position);
            if (read < 0) {
                throw new IOException(getFilename() + " ended before its " + version.bytes() + " bytes");
            }
            position += read;
            return read;
        }

        @Override
        public long skip(long count) {
            long skipped = Math.max(0, Math.min(count, version.bytes() - position));
            position += skipped;
            return skipped;
        }

        @Override
        public int available() {
            return (int) Math.min(Integer.MAX_VALUE, version.bytes() - position);
        }
    }
}
