package dev.nqueens.web;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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

    /** Reads in blocks of Tomcat's write buffer (see {@link WebConfiguration}). */
    private static final int BUFFER = 1 << 16;

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
        return new Reader();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /**
     * The version's bytes from the start, read at a position of its own, 64 KB at a time: small reads
     * (Spring copies a range in 8 KB blocks) are served from the block read ahead; skipping moves the
     * position without reading.
     */
    private final class Reader extends InputStream {

        /** The next byte of the file not yet in {@link #ahead}. */
        private long position;

        private final ByteBuffer ahead = ByteBuffer.allocate(BUFFER).flip();

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (!ahead.hasRemaining()) {
                if (position >= version.bytes()) {
                    return -1;
                }
                if (length >= BUFFER) {
                    return fill(ByteBuffer.wrap(buffer, offset, length));
                }
                ahead.clear();
                fill(ahead);
                ahead.flip();
            }
            int served = Math.min(length, ahead.remaining());
            ahead.get(buffer, offset, served);
            return served;
        }

        /** Reads the next block of the file into {@code block}, no further than the version's length. */
        private int fill(ByteBuffer block) throws IOException {
            block.limit(block.position() + (int) Math.min(block.remaining(), version.bytes() - position));
            int read = channel.read(block, position);
            if (read < 0) {
                throw new IOException(getFilename() + " ended before its " + version.bytes() + " bytes");
            }
            position += read;
            return read;
        }

        @Override
        public long skip(long count) {
            long fromAhead = Math.max(0, Math.min(count, ahead.remaining()));
            ahead.position(ahead.position() + (int) fromAhead);
            long fromFile = Math.max(0, Math.min(count - fromAhead, version.bytes() - position));
            position += fromFile;
            return fromAhead + fromFile;
        }

        @Override
        public int available() {
            return (int) Math.min(Integer.MAX_VALUE, ahead.remaining() + version.bytes() - position);
        }

        /** The rest of the file in 64 KB blocks (the default copies in smaller ones). */
        @Override
        public long transferTo(OutputStream out) throws IOException {
            byte[] buffer = new byte[BUFFER];
            long copied = 0;
            for (int read; (read = read(buffer, 0, BUFFER)) >= 0; ) {
                out.write(buffer, 0, read);
                copied += read;
            }
            return copied;
        }
    }
}
