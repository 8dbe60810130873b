package dev.nqueens.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /files/{name}}: the export files the manifest lists (any other name is not found, see
 * {@link ExportFolder}), with what download tools expect: Content-Length, a strong ETag (the file's
 * SHA-256), Last-Modified, conditional requests (304, 412), one byte range (206, 416) honoured only
 * while {@code If-Range} still names this version — so {@code curl -C -} resumes, and a resume
 * across a new export gets the whole new file instead of a splice — and HEAD. The file is opened
 * before its headers are final and checked to be the version they describe, so an export renaming
 * a new file into place meanwhile never mixes two versions.
 *
 * <p>Compressed on request: a whole-file GET whose {@code Accept-Encoding} admits gzip gets the
 * file gzipped on the fly ({@code Content-Encoding: gzip}, {@code Vary: Accept-Encoding}, its own
 * ETag: the file's with {@code -gzip}), so the largest files (a size stored with every solution,
 * gigabytes of JSON) travel at a fifth or less and unpack to exactly the exported bytes ({@code curl
 * --compressed}). A range request, or a client that does not ask, gets the file's own bytes: ranges
 * are always ranges of the file.
 */
@RestController
@Profile(Serve.PROFILE)
class FilesController {

    private static final Pattern ONE_RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");
    private static final int BUFFER = 1 << 16;

    private final ExportFolder folder;

    FilesController(ExportFolder folder) {
        this.folder = folder;
    }

    @GetMapping("/files/{name}")
    void download(@PathVariable String name, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        ExportFolder.Version version = folder.current(name);
        FileChannel file = open(version);
        try {
            for (int attempt = 0; !ExportFolder.unchanged(version); attempt++) {
                file.close();
                if (attempt == 10) {
                    throw new IOException(name + " keeps changing");
                }
                version = folder.current(name);
                file = open(version);
            }
            respond(version, file, request, response);
        } finally {
            file.close();
        }
    }

    /** Opens the file; one an export removed since it was looked up is not found, as if never there. */
    private static FileChannel open(ExportFolder.Version version) throws IOException {
        try {
            return FileChannel.open(version.path(), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw Problems.notFound("no export file is named '" + version.path().getFileName() + "'");
        }
    }

    private static void respond(ExportFolder.Version version, FileChannel file, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        long lastModified = version.modifiedMillis() / 1000 * 1000;
        boolean gzip = "GET".equals(request.getMethod()) && request.getHeader("Range") == null
                && acceptsGzip(request.getHeader("Accept-Encoding"));
        String etag = gzip ? gzipped(version.etag()) : version.etag();
        response.setHeader("ETag", etag);
        response.setDateHeader("Last-Modified", lastModified);
        response.setHeader("Accept-Ranges", "bytes");
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("Vary", "Accept-Encoding");
        String ifMatch = request.getHeader("If-Match");
        long ifUnmodifiedSince = request.getDateHeader("If-Unmodified-Since");
        if ((ifMatch != null && !matches(ifMatch, version.etag(), true))
                || (ifMatch == null && ifUnmodifiedSince >= 0 && lastModified > ifUnmodifiedSince)) {
            throw problem(HttpStatus.PRECONDITION_FAILED, "the file has changed: its ETag is now " + version.etag());
        }
        String ifNoneMatch = request.getHeader("If-None-Match");
        long ifModifiedSince = request.getDateHeader("If-Modified-Since");
        if ((ifNoneMatch != null && matches(ifNoneMatch, etag, false))
                || (ifNoneMatch == null && ifModifiedSince >= 0 && lastModified <= ifModifiedSince)) {
            response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            return;
        }
        response.setContentType(contentType(version.path().getFileName().toString()));
        response.setHeader("Content-Disposition", "attachment; filename=\"" + version.path().getFileName() + "\"");
        long length = version.bytes();
        long start = 0;
        long end = length - 1;
        Optional<long[]> range = "GET".equals(request.getMethod()) && rangeStillValid(request, version, lastModified)
                ? range(request.getHeader("Range"), length) : Optional.empty();
        if (range.isPresent()) {
            start = range.get()[0];
            end = range.get()[1];
            response.setStatus(HttpServletResponse.SC_PARTIAL_CONTENT);
            response.setHeader("Content-Range", "bytes " + start + "-" + end + "/" + length);
        }
        if (gzip) {
            response.setHeader("Content-Encoding", "gzip");
            try (GZIPOutputStream out = new GZIPOutputStream(response.getOutputStream(), BUFFER)) {
                copy(file, 0, length, out);
            }
            return;
        }
        response.setContentLengthLong(end - start + 1);
        if (!"HEAD".equals(request.getMethod())) {
            copy(file, start, end - start + 1, response.getOutputStream());
        }
    }

    /** The ETag of a file's gzipped body: {@code "<sha256>-gzip"}. */
    static String gzipped(String etag) {
        return etag.substring(0, etag.length() - 1) + "-gzip\"";
    }

    /** Whether an {@code Accept-Encoding} header admits gzip: named (or {@code *}) without {@code q=0}. */
    static boolean acceptsGzip(String header) {
        if (header == null) {
            return false;
        }
        for (String coding : header.split(",")) {
            String[] parts = coding.strip().split(";");
            String name = parts[0].strip().toLowerCase(java.util.Locale.ROOT);
            if (!name.equals("gzip") && !name.equals("x-gzip") && !name.equals("*")) {
                continue;
            }
            boolean refused = false;
            for (int i = 1; i < parts.length; i++) {
                String parameter = parts[i].strip().replace(" ", "");
                if (parameter.startsWith("q=")) {
                    try {
                        refused = Double.parseDouble(parameter.substring(2)) == 0;
                    } catch (NumberFormatException e) {
                        refused = true;
                    }
                }
            }
            if (!refused) {
                return true;
            }
        }
        return false;
    }

    /** No {@code If-Range}, or one that names this version (its ETag, or exactly its Last-Modified). */
    private static boolean rangeStillValid(HttpServletRequest request, ExportFolder.Version version,
            long lastModified) {
        String ifRange = request.getHeader("If-Range");
        if (ifRange == null) {
            return true;
        }
        if (ifRange.strip().startsWith("\"")) {
            return ifRange.strip().equals(version.etag());
        }
        try {
            return request.getDateHeader("If-Range") == lastModified;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The one range {@code bytes=a-b}, {@code bytes=a-} or {@code bytes=-n} asks for, clipped to the
     * file; empty for no Range, several ranges or a malformed one (then the whole file is sent).
     *
     * @throws ErrorResponseException 416 if the range starts beyond the end
     */
    static Optional<long[]> range(String header, long length) {
        if (header == null) {
            return Optional.empty();
        }
        Matcher one = ONE_RANGE.matcher(header.strip());
        if (!one.matches() || (one.group(1).isEmpty() && one.group(2).isEmpty())) {
            return Optional.empty();
        }
        try {
            if (one.group(1).isEmpty()) {
                long suffix = Long.parseLong(one.group(2));
                if (suffix == 0) {
                    throw unsatisfiable(length);
                }
                return Optional.of(new long[] {Math.max(0, length - suffix), length - 1});
            }
            long start = Long.parseLong(one.group(1));
            long end = one.group(2).isEmpty() ? length - 1 : Math.min(Long.parseLong(one.group(2)), length - 1);
            if (one.group(2).length() > 0 && Long.parseLong(one.group(2)) < start) {
                return Optional.empty();
            }
            if (start >= length) {
                throw unsatisfiable(length);
            }
            return Optional.of(new long[] {start, end});
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static ErrorResponseException unsatisfiable(long length) {
        ErrorResponseException problem = problem(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                "the range starts beyond the end of the file (" + length + " bytes)");
        problem.getHeaders().set("Content-Range", "bytes */" + length);
        return problem;
    }

    private static ErrorResponseException problem(HttpStatus status, String detail) {
        return new ErrorResponseException(status, ProblemDetail.forStatusAndDetail(status, detail), null);
    }

    /** {@code If-None-Match} compares weakly, {@code If-Match} strongly; {@code *} matches any file. */
    private static boolean matches(String header, String etag, boolean strong) {
        return Arrays.stream(header.split(",")).map(String::strip).anyMatch(tag -> tag.equals("*")
                || tag.equals(etag) || (!strong && tag.equals("W/" + etag)));
    }

    private static String contentType(String name) {
        if (name.endsWith(".json")) {
            return "application/json";
        }
        if (name.endsWith(".csv")) {
            return "text/csv;charset=UTF-8";
        }
        return name.equals("SHA256SUMS") ? "text/plain;charset=US-ASCII" : "application/octet-stream";
    }

    private static void copy(FileChannel file, long start, long count, OutputStream out) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
        long position = start;
        long left = count;
        while (left > 0) {
            buffer.clear().limit((int) Math.min(BUFFER, left));
            int read = file.read(buffer, position);
            if (read < 0) {
                throw new IOException("the file ended early");
            }
            out.write(buffer.array(), 0, read);
            position += read;
            left -= read;
        }
        out.flush();
    }
}
