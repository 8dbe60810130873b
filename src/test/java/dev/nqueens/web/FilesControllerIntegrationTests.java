package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.head;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import dev.nqueens.TestResources;
import dev.nqueens.export.Sha256;
import jakarta.servlet.RequestDispatcher;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The downloads through Spring MVC's own test support, on real files: whole files with their
 * validators, conditional requests (garbage dates ignored), ranges and If-Range, HEAD, gzip on the
 * fly, and errors as problems with the security headers.
 */
@WebMvcTest(
        controllers = {FilesController.class, ContainerErrors.class},
        properties = {"logging.file.name=", "logging.level.dev.nqueens.web=OFF"})
@ActiveProfiles(Serve.PROFILE)
@Import(FilesControllerIntegrationTests.Folder.class)
@ResourceLock(TestResources.TEST_JVM)
class FilesControllerIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String CSV = "/files/solutions-n08.csv";

    @TempDir
    static Path output;

    @Autowired
    MockMvc mvc;

    /** An export folder: a CSV of some size, the summary, the manifest listing them, a file it does not list. */
    @TestConfiguration
    static class Folder {

        @Bean
        ExportFolder exportFolder() throws IOException {
            StringBuilder csv = new StringBuilder("ordinal,placement,class_ordinal,orbit_size,symmetry\n");
            for (int ordinal = 1; ordinal <= 5000; ordinal++) {
                csv.append(ordinal)
                        .append(",\"1 5 8 6 3 7 2 4\",")
                        .append(ordinal % 12 + 1)
                        .append(",8,NONE\n");
            }
            Files.writeString(output.resolve("solutions-n08.csv"), csv);
            Files.writeString(output.resolve("summary.csv"), "n,total_solutions\n8,92\n");
            Files.writeString(output.resolve("notes.txt"), "the operator's own file\n");
            StringBuilder manifest = new StringBuilder("{\"files\":[");
            for (String name : new String[] {"solutions-n08.csv", "summary.csv"}) {
                Path file = output.resolve(name);
                manifest.append(manifest.length() > 10 ? "," : "")
                        .append("{\"name\":\"")
                        .append(name)
                        .append("\",\"bytes\":")
                        .append(Files.size(file))
                        .append(",\"sha256\":\"")
                        .append(Sha256.of(file))
                        .append("\"}");
            }
            Files.writeString(output.resolve("manifest.json"), manifest.append("]}"));
            return new ExportFolder(output);
        }

        /** Fails as nothing foreseen does (registered as a member class of this configuration). */
        @RestController
        static class Failing {

            @GetMapping("/failing")
            String fail() {
                throw new IllegalStateException("a secret of the server");
            }
        }
    }

    @Test
    void aWholeFileWithItsValidators() throws Exception {
        byte[] bytes = bytes("solutions-n08.csv");
        MockHttpServletResponse whole = send(get(CSV));
        assertThat(whole.getStatus()).isEqualTo(200);
        assertThat(whole.getContentAsByteArray()).isEqualTo(bytes);
        assertThat(whole.getHeader("Content-Length")).isEqualTo(String.valueOf(bytes.length));
        assertThat(whole.getHeader("ETag")).isEqualTo(etag());
        assertThat(whole.getHeader("Last-Modified")).isEqualTo(lastModified());
        assertThat(whole.getHeader("Accept-Ranges")).isEqualTo("bytes");
        assertThat(whole.getHeader("Vary")).isEqualTo("Accept-Encoding");
        assertThat(whole.getHeader("Content-Type")).isEqualTo("text/csv;charset=UTF-8");
        assertThat(whole.getHeader("Content-Disposition")).isEqualTo("attachment; filename=\"solutions-n08.csv\"");
        assertThat(whole.getHeader("Content-Encoding")).isNull();
        assertSecurityHeaders(whole);

        MockHttpServletResponse head = send(head(CSV));
        assertThat(head.getStatus()).isEqualTo(200);
        assertThat(head.getContentAsByteArray()).isEmpty();
        assertThat(head.getHeader("Content-Length")).isEqualTo(String.valueOf(bytes.length));
        assertThat(head.getHeader("ETag")).isEqualTo(etag());
        assertThat(head.getHeader("Last-Modified")).isEqualTo(lastModified());

        assertThat(send(get("/files/manifest.json")).getHeader("Content-Type")).isEqualTo("application/json");
    }

    @Test
    void conditionalRequestsAnswer304Or412AndIgnoreGarbageDates() throws Exception {
        MockHttpServletResponse byEtag = send(get(CSV).header("If-None-Match", etag()));
        assertThat(byEtag.getStatus()).isEqualTo(304);
        assertThat(byEtag.getContentAsByteArray()).isEmpty();
        assertThat(byEtag.getHeader("ETag")).isEqualTo(etag());
        assertThat(byEtag.getHeader("Vary")).isEqualTo("Accept-Encoding");
        assertThat(send(get(CSV).header("If-None-Match", "W/" + etag())).getStatus())
                .as("weak comparison")
                .isEqualTo(304);
        assertThat(send(get(CSV).header("If-None-Match", "\"another-version\"")).getStatus())
                .isEqualTo(200);
        assertThat(send(head(CSV).header("If-None-Match", etag())).getStatus()).isEqualTo(304);

        assertThat(send(get(CSV).header("If-Modified-Since", lastModified())).getStatus())
                .isEqualTo(304);
        assertThat(send(get(CSV).header("If-Modified-Since", "Thu, 01 Jan 2015 00:00:00 GMT"))
                        .getStatus())
                .isEqualTo(200);
        MockHttpServletResponse stale = send(get(CSV).header("If-Unmodified-Since", "Thu, 01 Jan 2015 00:00:00 GMT"));
        assertProblem(stale, 412);
        assertThat(problem(stale).get("detail").asString()).contains(etag());
        assertThat(send(get(CSV).header("If-Unmodified-Since", lastModified())).getStatus())
                .isEqualTo(200);

        // RFC 9110 §13.1.3, §13.1.4: a date that is not one is ignored.
        for (String header : new String[] {"If-Modified-Since", "If-Unmodified-Since"}) {
            MockHttpServletResponse garbage = send(get(CSV).header(header, "garbage"));
            assertThat(garbage.getStatus()).as(header).isEqualTo(200);
            assertThat(garbage.getContentAsByteArray()).isEqualTo(bytes("solutions-n08.csv"));
        }
    }

    @Test
    void rangesOfTheFileAndBeyondItsEnd() throws Exception {
        byte[] bytes = bytes("solutions-n08.csv");
        MockHttpServletResponse range = send(get(CSV).header("Range", "bytes=100-199"));
        assertThat(range.getStatus()).isEqualTo(206);
        assertThat(range.getHeader("Content-Range")).isEqualTo("bytes 100-199/" + bytes.length);
        assertThat(range.getHeader("Content-Length")).isEqualTo("100");
        assertThat(range.getContentAsByteArray()).isEqualTo(Arrays.copyOfRange(bytes, 100, 200));
        assertThat(range.getHeader("ETag")).isEqualTo(etag());

        MockHttpServletResponse tail = send(get(CSV).header("Range", "bytes=-10"));
        assertThat(tail.getStatus()).isEqualTo(206);
        assertThat(tail.getContentAsByteArray()).isEqualTo(Arrays.copyOfRange(bytes, bytes.length - 10, bytes.length));

        MockHttpServletResponse two = send(get(CSV).header("Range", "bytes=0-9,20-29"));
        assertThat(two.getStatus()).isEqualTo(206);
        assertThat(two.getHeader("Content-Type")).startsWith("multipart/byteranges; boundary=");
        assertThat(two.getContentAsString(StandardCharsets.UTF_8))
                .contains("Content-Range: bytes 0-9/" + bytes.length)
                .contains("Content-Range: bytes 20-29/" + bytes.length)
                .contains(new String(bytes, 20, 10, StandardCharsets.UTF_8));

        for (String unsatisfiable : new String[] {"bytes=" + bytes.length + "-", "bytes=999999-", "bytes=9-0"}) {
            MockHttpServletResponse beyond = send(get(CSV).header("Range", unsatisfiable));
            assertProblem(beyond, 416);
            assertThat(beyond.getHeader("Content-Range")).isEqualTo("bytes */" + bytes.length);
            assertThat(beyond.getContentAsByteArray().length)
                    .as("no file in the body")
                    .isLessThan(1000);
        }

        MockHttpServletResponse otherUnit = send(get(CSV).header("Range", "lines=1-2"));
        assertThat(otherUnit.getStatus())
                .as("RFC 9110 §14.2: an unknown unit is ignored")
                .isEqualTo(200);
        assertThat(otherUnit.getContentAsByteArray()).isEqualTo(bytes);
        assertThat(send(head(CSV).header("Range", "bytes=0-9")).getStatus()).isEqualTo(200);
    }

    @Test
    void aRangeIsHonouredOnlyWhileIfRangeNamesThisVersion() throws Exception {
        byte[] bytes = bytes("solutions-n08.csv");
        for (String current : new String[] {etag(), lastModified()}) {
            MockHttpServletResponse resumed =
                    send(get(CSV).header("Range", "bytes=100-").header("If-Range", current));
            assertThat(resumed.getStatus()).as(current).isEqualTo(206);
            assertThat(resumed.getContentAsByteArray()).isEqualTo(Arrays.copyOfRange(bytes, 100, bytes.length));
        }
        for (String stale :
                new String[] {"\"an-older-version\"", "W/" + etag(), "Thu, 01 Jan 2015 00:00:00 GMT", "garbage"}) {
            MockHttpServletResponse whole =
                    send(get(CSV).header("Range", "bytes=100-").header("If-Range", stale));
            assertThat(whole.getStatus()).as(stale).isEqualTo(200);
            assertThat(whole.getHeader("Content-Length")).isEqualTo(String.valueOf(bytes.length));
            assertThat(whole.getHeader("Content-Range")).isNull();
            assertThat(whole.getContentAsByteArray()).isEqualTo(bytes);
        }
    }

    @Test
    void aWholeFileGoesGzippedToAClientThatAsks() throws Exception {
        byte[] bytes = bytes("solutions-n08.csv");
        MockHttpServletResponse gzipped = send(get(CSV).header("Accept-Encoding", "gzip, deflate"));
        assertThat(gzipped.getStatus()).isEqualTo(200);
        assertThat(gzipped.getHeader("Content-Encoding")).isEqualTo("gzip");
        assertThat(gzipped.getHeader("Vary")).isEqualTo("Accept-Encoding");
        String gzipEtag = etag().replaceAll("\"$", "-gzip\"");
        assertThat(gzipped.getHeader("ETag")).isEqualTo(gzipEtag);
        assertThat(gzipped.getHeader("Content-Length")).isNull();
        assertThat(gzipped.getContentAsByteArray().length).as("compressed").isLessThan(bytes.length / 4);
        assertThat(new GZIPInputStream(new ByteArrayInputStream(gzipped.getContentAsByteArray())).readAllBytes())
                .isEqualTo(bytes);

        assertThat(send(get(CSV).header("Accept-Encoding", "gzip").header("If-None-Match", gzipEtag))
                        .getStatus())
                .isEqualTo(304);
        assertThat(send(get(CSV).header("Accept-Encoding", "gzip").header("If-None-Match", etag()))
                        .getStatus())
                .as("the file's own ETag is not the gzipped body's")
                .isEqualTo(200);
        assertThat(send(get(CSV).header("Accept-Encoding", "gzip;q=0")).getHeader("Content-Encoding"))
                .isNull();
        MockHttpServletResponse range =
                send(get(CSV).header("Accept-Encoding", "gzip").header("Range", "bytes=0-9"));
        assertThat(range.getStatus()).as("a range is of the file's own bytes").isEqualTo(206);
        assertThat(range.getHeader("Content-Encoding")).isNull();
        assertThat(range.getContentAsByteArray()).isEqualTo(Arrays.copyOf(bytes, 10));
        MockHttpServletResponse head = send(head(CSV).header("Accept-Encoding", "gzip"));
        assertThat(head.getHeader("Content-Encoding")).isNull();
        assertThat(head.getHeader("Content-Length")).isEqualTo(String.valueOf(bytes.length));
    }

    @Test
    void onlyTheFilesTheManifestListsAreServed() throws Exception {
        assertThat(send(get("/files/summary.csv")).getStatus()).isEqualTo(200);
        assertProblem(send(get("/files/notes.txt")), 404);
        assertProblem(send(get("/files/no-such-file.csv")), 404);
        assertProblem(send(get("/files/.manifest.json.partial")), 400);
        assertProblem(send(get("/files/..")), 400);
    }

    @Test
    void everyErrorIsAProblemWithTheSecurityHeadersAndNoStackTrace() throws Exception {
        assertProblem(send(post(CSV)), 405);
        assertProblem(send(get("/no/such/page")), 404);
        MockHttpServletResponse failed = send(get("/failing"));
        assertProblem(failed, 500);
        assertThat(failed.getContentAsString(StandardCharsets.UTF_8))
                .doesNotContain("secret")
                .doesNotContain("IllegalStateException")
                .doesNotContain("\tat ");
        // What Tomcat hands to its error page: a method it refuses itself, an exception outside Spring MVC.
        MockHttpServletResponse refused = send(get("/error")
                .requestAttr(RequestDispatcher.ERROR_STATUS_CODE, 405)
                .requestAttr(RequestDispatcher.ERROR_REQUEST_URI, "/"));
        assertProblem(refused, 405);
        assertThat(problem(refused).get("instance").asString()).isEqualTo("/");
        assertProblem(send(get("/error").requestAttr(RequestDispatcher.ERROR_STATUS_CODE, 500)), 500);
        assertProblem(send(get("/error")), 404);
    }

    private MockHttpServletResponse send(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request).andReturn().getResponse();
    }

    private static void assertProblem(MockHttpServletResponse response, int status) throws Exception {
        assertThat(response.getStatus()).isEqualTo(status);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(problem(response).get("status").asInt()).isEqualTo(status);
        assertSecurityHeaders(response);
    }

    private static JsonNode problem(MockHttpServletResponse response) throws Exception {
        return JSON.readTree(response.getContentAsByteArray());
    }

    private static void assertSecurityHeaders(MockHttpServletResponse response) {
        assertThat(response.getHeader("Content-Security-Policy")).isEqualTo(SecurityHeaders.POLICY);
        assertThat(response.getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(response.getHeader("X-Frame-Options")).isEqualTo("DENY");
        assertThat(response.getHeader("Referrer-Policy")).isEqualTo("no-referrer");
    }

    private static byte[] bytes(String name) throws IOException {
        return Files.readAllBytes(output.resolve(name));
    }

    private static String etag() throws IOException {
        return "\"" + Sha256.of(output.resolve("solutions-n08.csv")) + "\"";
    }

    private static String lastModified() throws IOException {
        return DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
                .format(Files.getLastModifiedTime(output.resolve("solutions-n08.csv"))
                        .toInstant()
                        .atZone(ZoneOffset.UTC));
    }
}
