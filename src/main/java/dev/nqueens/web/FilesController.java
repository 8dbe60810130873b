package dev.nqueens.web;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.apache.tomcat.util.http.parser.AcceptEncoding;
import org.springframework.context.annotation.Profile;
import org.springframework.core.io.InputStreamResource;
import org.springframework.http.CacheControl;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRange;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * {@code /files/{name}}: the export files the manifest lists (any other name is not found, see
 * {@link ExportFolder}), served by Spring MVC's resource support: Content-Length, byte ranges (206,
 * several as multipart/byteranges), HEAD, and through {@code checkNotModified} the strong ETag (the
 * file's SHA-256) and Last-Modified with their conditional requests (304, 412). The body is the
 * version the headers describe ({@link ExportFile}).
 *
 * <p>What Spring does not do is done here: {@code If-Range} (spring-framework#27952: Spring answers a
 * range whatever it names), so a range is honoured only while {@code If-Range} still names this
 * version and a resume across a new export gets the whole new file instead of a splice; a range of
 * another unit than bytes is ignored (RFC 9110 §14.2); an unsatisfiable range is a problem (Spring
 * would send the whole file as the body of its 416); and a whole-file GET whose {@code
 * Accept-Encoding} admits gzip gets the file gzipped on the fly ({@link GzipConverter}; {@code
 * Content-Encoding: gzip}, its own ETag: the file's with {@code -gzip}), so the largest files travel
 * at a fifth or less and unpack to exactly the exported bytes ({@code curl --compressed}). A range,
 * a HEAD, or a client that does not ask gets the file's own bytes.
 */
@RestController
@Profile(Serve.PROFILE)
class FilesController {

    private static final MediaType CSV = MediaType.parseMediaType("text/csv;charset=UTF-8");
    private static final MediaType CHECKSUMS = MediaType.parseMediaType("text/plain;charset=US-ASCII");

    private final ExportFolder folder;

    FilesController(ExportFolder folder) {
        this.folder = folder;
    }

    @GetMapping("/files/{name}")
    ResponseEntity<?> download(@PathVariable String name, ServletWebRequest request) throws IOException {
        ExportFile file = ExportFile.open(folder, name);
        RequestContextHolder.currentRequestAttributes()
                .registerDestructionCallback(
                        ExportFile.class.getName(), () -> close(file), RequestAttributes.SCOPE_REQUEST);
        boolean get = request.getHttpMethod() == HttpMethod.GET;
        String range = request.getHeader(HttpHeaders.RANGE);
        boolean gzip = get && range == null && acceptsGzip(request.getHeader(HttpHeaders.ACCEPT_ENCODING));
        String etag = gzip ? gzipped(file.etag()) : file.etag();
        if (request.checkNotModified(etag, file.lastModified())) {
            if (request.getResponse().getStatus() == HttpStatus.PRECONDITION_FAILED.value()) {
                throw problem(HttpStatus.PRECONDITION_FAILED, "the file has changed: its ETag is now " + file.etag());
            }
            return ResponseEntity.status(HttpStatus.NOT_MODIFIED)
                    .headers(representation())
                    .build();
        }
        HttpHeaders headers = representation();
        headers.setETag(etag);
        headers.setLastModified(file.lastModified());
        headers.setContentType(contentType(name));
        headers.setContentDisposition(
                ContentDisposition.attachment().filename(file.getFilename()).build());
        headers.set(HttpHeaders.ACCEPT_RANGES, "bytes");
        if (!get) {
            return ResponseEntity.ok()
                    .headers(headers)
                    .contentLength(file.contentLength())
                    .build();
        }
        if (gzip) {
            headers.set(HttpHeaders.CONTENT_ENCODING, "gzip");
            return ResponseEntity.ok().headers(headers).body(new GzipConverter.Gzipped(file));
        }
        if (range != null && !honoured(range, request.getHeader(HttpHeaders.IF_RANGE), file)) {
            // The whole file despite the Range: an InputStreamResource is the one Resource Spring never slices.
            return ResponseEntity.ok()
                    .headers(headers)
                    .contentLength(file.contentLength())
                    .body(new InputStreamResource(file.getInputStream()));
        }
        return ResponseEntity.ok().headers(headers).body(file);
    }

    /** What every answer for the file says, 304 included (RFC 9110 §15.4.5): it varies with Accept-Encoding. */
    private static HttpHeaders representation() {
        HttpHeaders headers = new HttpHeaders();
        headers.setVary(List.of(HttpHeaders.ACCEPT_ENCODING));
        headers.setCacheControl(CacheControl.noCache());
        return headers;
    }

    /**
     * Whether Spring is to answer the {@code Range}: ranges of bytes (a range of another unit is
     * ignored) while {@code If-Range}, if sent, names this version.
     *
     * @throws ErrorResponseException 416 if the ranges are malformed or not within the file
     */
    private static boolean honoured(String range, String ifRange, ExportFile file) {
        if (!range.startsWith("bytes=") || (ifRange != null && !namesThisVersion(ifRange, file))) {
            return false;
        }
        try {
            HttpRange.toResourceRegions(HttpRange.parseRanges(range), file);
            return true;
        } catch (IllegalArgumentException e) {
            ErrorResponseException problem = problem(
                    HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                    "the range '" + range + "' is not within the file's " + file.contentLength() + " bytes");
            problem.getHeaders().set(HttpHeaders.CONTENT_RANGE, "bytes */" + file.contentLength());
            throw problem;
        }
    }

    /**
     * Whether an {@code If-Range} names this version (RFC 9110 §13.1.5): its strong ETag, or exactly
     * its Last-Modified; a weak ETag or anything else does not.
     */
    static boolean namesThisVersion(String ifRange, ExportFile file) {
        String validator = ifRange.strip();
        if (validator.startsWith("\"")) {
            return validator.equals(file.etag());
        }
        try {
            return ZonedDateTime.parse(validator, DateTimeFormatter.RFC_1123_DATE_TIME)
                            .toInstant()
                            .toEpochMilli()
                    == file.lastModified() / 1000 * 1000;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    /** The ETag of a file's gzipped body: {@code "<sha256>-gzip"}. */
    static String gzipped(String etag) {
        return etag.substring(0, etag.length() - 1) + "-gzip\"";
    }

    /** Whether an {@code Accept-Encoding} header admits gzip: names it (or {@code *}) without {@code q=0}. */
    static boolean acceptsGzip(String header) {
        if (header == null) {
            return false;
        }
        try {
            return AcceptEncoding.parse(new StringReader(header)).stream()
                    .map(AcceptEncoding::getEncoding)
                    .anyMatch(coding ->
                            coding.equalsIgnoreCase("gzip") || coding.equalsIgnoreCase("x-gzip") || coding.equals("*"));
        } catch (IOException e) {
            return false;
        }
    }

    private static MediaType contentType(String name) {
        if (name.endsWith(".json")) {
            return MediaType.APPLICATION_JSON;
        }
        if (name.endsWith(".csv")) {
            return CSV;
        }
        return name.equals("SHA256SUMS") ? CHECKSUMS : MediaType.APPLICATION_OCTET_STREAM;
    }

    private static ErrorResponseException problem(HttpStatus status, String detail) {
        return new ErrorResponseException(status, ProblemDetail.forStatusAndDetail(status, detail), null);
    }

    private static void close(ExportFile file) {
        try {
            file.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
