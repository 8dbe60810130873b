package dev.nqueens;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nqueens.job.ThisProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./nqueens serve} as a user runs it: the jar serving the results of a real run over HTTP,
 * checked against the reference data — the API, the downloads with their HTTP semantics, bad
 * input, health and metrics — and the database left as it was.
 */
@Order(Integer.MAX_VALUE - 1) // one of the longest classes: second from the back of the list (see the pom)
class ServeFunctionalTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String MV_DB = "data/nqueens.mv.db";

    @TempDir
    static Path directory;

    private static ServedResults served;
    private static String databaseBefore;

    @BeforeAll
    static void runThenServe() throws Exception {
        served = ServedResults.start(directory, "nqueens:\n  schedule:\n    enabled: false\n");
        databaseBefore = ServedResults.contents(directory);
    }

    @AfterAll
    static void stopServing() throws Exception {
        NqueensProcess.Result stopped = served.serve.terminate();
        assertThat(stopped.out()).contains("The nightly schedule is off").contains("serve stopped.");
        assertThat(stopped.err()).doesNotContain("\tat ");
        assertThat(directory.resolve("data/nqueens.holder")).doesNotExist();
        assertThat(directory.resolve("tmp"))
                .as("Tomcat's scratch folders, gone with serve")
                .isEmptyDirectory();
        assertThat(ServedResults.contents(directory))
                .as("the database after serving")
                .isEqualTo(databaseBefore);
    }

    @Test
    void theApiGivesTheKnownCountsOfEveryPublishedSize() throws Exception {
        HttpResponse<byte[]> response = served.get("/api/sizes");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode sizes = JSON.readTree(response.body()).get("sizes");
        assertThat(sizes).hasSize(10);
        for (JsonNode size : sizes) {
            Reference.Counts known = Reference.counts(size.get("n").asInt());
            assertThat(List.of(
                            size.get("total_solutions").asLong(),
                            size.get("fundamental_solutions").asLong(),
                            size.get("rot90_classes").asLong(),
                            size.get("rot180_classes").asLong(),
                            size.get("asymmetric_classes").asLong()))
                    .as("n = " + known.n())
                    .containsExactly(
                            known.total(), known.fundamental(), known.rot90(), known.rot180(), known.asymmetric());
            assertThat(size.get("stored").asString())
                    .isEqualTo(known.n() <= 8 ? "ALL" : known.n() == 9 ? "FUNDAMENTAL" : "COUNT");
        }
        JsonNode eight = JSON.readTree(served.get("/api/sizes/8").body());
        assertThat(eight.get("total_solutions").asLong()).isEqualTo(92);
        assertThat(eight.get("fundamental_solutions").asLong()).isEqualTo(12);
    }

    @Test
    void solutionsAndClassesComeInPagesAsJsonOrCsv() throws Exception {
        JsonNode all = JSON.readTree(
                served.get("/api/sizes/8/solutions?offset=0&limit=100").body());
        assertThat(all.get("total").asLong()).isEqualTo(92);
        assertThat(all.get("next_offset").isNull()).isTrue();
        List<String> placements = new ArrayList<>();
        all.get("solutions").forEach(row -> placements.add(row.get("placement").asString()));
        assertThat(placements)
                .containsExactlyElementsOf(
                        Reference.n8().stream().map(Reference.N8::spaced).toList());

        JsonNode page = JSON.readTree(
                served.get("/api/sizes/8/solutions?offset=40&limit=10").body());
        assertThat(page.get("next_offset").asLong()).isEqualTo(50);
        assertThat(page.get("solutions")).hasSize(10);
        assertThat(page.get("solutions").get(0).get("ordinal").asLong()).isEqualTo(41);
        assertThat(page.get("solutions").get(0).get("placement").asString())
                .isEqualTo(Reference.n8().get(40).spaced());

        HttpResponse<byte[]> csv = served.get("/api/sizes/8/classes?format=csv");
        assertThat(csv.headers().firstValue("Content-Type")).hasValue("text/csv;charset=UTF-8");
        List<String> lines = ServedResults.text(csv).lines().toList();
        assertThat(lines).hasSize(13).first().isEqualTo("class_ordinal,placement,orbit_size,symmetry");
        assertThat(lines.get(1)).isEqualTo("1,\"1 5 8 6 3 7 2 4\",8,NONE");
        assertThat(lines.stream().skip(1).map(line -> line.split(",")[1].replace("\"", "")))
                .containsExactlyElementsOf(representativesOfEight());

        JsonNode nine =
                JSON.readTree(served.get("/api/sizes/9/classes?limit=100").body());
        assertThat(nine.get("classes")).hasSize((int) Reference.counts(9).fundamental());
        JsonNode runs = JSON.readTree(served.get("/api/runs").body()).get("runs");
        assertThat(runs).hasSize(1);
        assertThat(runs.get(0).get("status").asString()).isEqualTo("COMPLETED");
        assertThat(runs.get(0).get("sizes").asString()).isEqualTo(ServedResults.SIZES);
    }

    /** The 12 class representatives of n = 8 from the reference: the distinct smallest members, in order. */
    static List<String> representativesOfEight() {
        return Reference.n8().stream()
                .map(Reference.N8::representativeSpaced)
                .distinct()
                .sorted()
                .toList();
    }

    @Test
    void badParametersAndSizesNotStoredGetProblems() throws Exception {
        // The API's parameters in detail: ApiControllerIntegrationTests; the downloads':
        // FilesControllerIntegrationTests.
        Map<String, Integer> expected = new java.util.LinkedHashMap<>();
        expected.put("/api/sizes/26", 400); // beyond the sizes this build computes (1..25)
        expected.put("/api/sizes/25", 404); // within them, not published
        expected.put("/api/sizes/9/solutions", 404);
        expected.put("/api/sizes/10/classes", 404);
        expected.put("/api/runs?limit=0", 400);
        expected.put("/sizes/x", 400);
        expected.put("/sizes/11", 404);
        expected.put("/sizes/8?page=2", 404);
        expected.put("/sizes/9/classes/1", 404);
        expected.put("/files/no-such-file.csv", 404);
        expected.put("/no/such/page", 404);
        expected.put("/actuator/env", 404);
        for (Map.Entry<String, Integer> request : expected.entrySet()) {
            HttpResponse<byte[]> response = served.get(request.getKey());
            assertThat(response.statusCode()).as(request.getKey()).isEqualTo(request.getValue());
            assertThat(response.headers().firstValue("Content-Type"))
                    .as(request.getKey())
                    .hasValue("application/problem+json");
            assertThat(JSON.readTree(response.body()).get("status").asInt()).isEqualTo(request.getValue());
            assertThat(response.headers().firstValue("Content-Security-Policy"))
                    .as(request.getKey())
                    .isPresent();
        }
        assertThat(ServedResults.text(served.get("/api/sizes/10/classes"))).contains("stored as COUNT");
    }

    /** What Tomcat answers before Spring MVC sees the request goes through the error page: a problem too. */
    @Test
    void whatTomcatRefusesItselfIsAProblemWithTheSecurityHeaders() throws Exception {
        for (String method : List.of("TRACE", "PATCH")) {
            HttpResponse<byte[]> refused = served.send(method, "/");
            assertThat(refused.statusCode()).as(method).isEqualTo(405);
            assertThat(refused.headers().firstValue("Content-Type")).as(method).hasValue("application/problem+json");
            assertThat(refused.headers().firstValue("Content-Security-Policy"))
                    .as(method)
                    .isPresent();
            assertThat(refused.headers().firstValue("X-Content-Type-Options"))
                    .as(method)
                    .hasValue("nosniff");
            assertThat(JSON.readTree(refused.body()).get("status").asInt()).isEqualTo(405);
        }
        HttpResponse<byte[]> error = served.get("/error");
        assertThat(error.statusCode()).isEqualTo(404);
        assertThat(error.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    void onlyTheExportFolderIsServedWhateverThePathSays() throws Exception {
        String database = new String(Files.readAllBytes(directory.resolve(MV_DB)), 0, 8, StandardCharsets.ISO_8859_1);
        for (String path : List.of(
                "/files/../data/nqueens.mv.db",
                "/files/%2e%2e/data/nqueens.mv.db",
                "/files/..%2fdata%2fnqueens.mv.db",
                "/files/%2e%2e%2fdata%2fnqueens.mv.db",
                "/files/..%5cdata%5cnqueens.mv.db",
                "/files/%252e%252e%252fdata%252fnqueens.mv.db",
                "/files/..%252fdata%252fnqueens.mv.db",
                "/files/.%2e/data/nqueens.mv.db",
                "/../data/nqueens.mv.db",
                "/files/%2fetc%2fpasswd",
                "/files/.manifest.json.partial",
                "/files/",
                "/data/nqueens.mv.db")) {
            String response = served.raw(path);
            String status = response.lines().findFirst().orElse("");
            assertThat(status).as(path).matches("HTTP/1.1 40[04] ?.*");
            assertThat(response)
                    .as(path)
                    .containsIgnoringCase("Content-Type: application/problem+json")
                    .doesNotContain(database)
                    .doesNotContain("root:x:0");
        }
    }

    @Test
    void aFileTheManifestDoesNotListIsNotServedWhateverItsName() throws Exception {
        // n = 9 is stored with its classes only: a solutions file of it is not what the database holds.
        Path stray = directory.resolve("output/solutions-n09.csv");
        Path foreign = directory.resolve("output/notes.txt");
        Files.copy(directory.resolve("output/solutions-n08.csv"), stray);
        Files.writeString(foreign, "the operator's own file");
        try {
            for (String name : List.of("solutions-n09.csv", "notes.txt")) {
                HttpResponse<byte[]> response = served.get("/files/" + name);
                assertThat(response.statusCode()).as(name).isEqualTo(404);
                assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            }
            assertThat(served.get("/files/solutions-n08.csv").statusCode()).isEqualTo(200);
            assertThat(served.get("/files/SHA256SUMS").statusCode()).isEqualTo(200);
        } finally {
            Files.delete(stray);
            Files.delete(foreign);
        }
    }

    @Test
    void downloadsCarryTheirChecksumsAndTheHttpDownloadToolsExpect() throws Exception {
        JsonNode manifest = JSON.readTree(served.get("/files/manifest.json").body());
        for (JsonNode file : manifest.get("files")) {
            HttpResponse<byte[]> download =
                    served.get("/files/" + file.get("name").asString());
            assertThat(download.statusCode()).isEqualTo(200);
            assertThat(ServedResults.sha256(download.body()))
                    .as(file.get("name").asString())
                    .isEqualTo(file.get("sha256").asString());
            assertThat(download.headers().firstValueAsLong("Content-Length"))
                    .hasValue(file.get("bytes").asLong());
            assertThat(download.headers().firstValue("ETag"))
                    .hasValue("\"" + file.get("sha256").asString() + "\"");
        }
        String sums = ServedResults.text(served.get("/files/SHA256SUMS"));
        assertThat(sums.lines())
                .hasSize(manifest.get("files").size() + 1)
                .contains(manifest.get("files").get(2).get("sha256").asString() + "  "
                        + manifest.get("files").get(2).get("name").asString())
                .anyMatch(line -> line.endsWith("  manifest.json"));
        checkWithSha256sum(sums);

        // Over Tomcat what a slice cannot show: HEAD's length, a date header Tomcat cannot parse, curl's resume.
        // The HTTP semantics in detail (ranges, If-Range, 304, 412, 416): FilesControllerIntegrationTests.
        String name = "/files/solutions-n08.csv";
        HttpResponse<byte[]> whole = served.get(name);
        String etag = whole.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).startsWith("\"").doesNotStartWith("W/");
        assertThat(whole.headers().firstValue("Last-Modified")).isPresent();
        assertThat(whole.headers().firstValue("Accept-Ranges")).hasValue("bytes");

        HttpResponse<byte[]> head = served.send("HEAD", name);
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers().firstValueAsLong("Content-Length")).hasValue(whole.body().length);
        assertThat(head.headers().firstValue("ETag")).hasValue(etag);

        assertThat(served.get(name, "If-None-Match", etag).statusCode()).isEqualTo(304);
        for (String header : List.of("If-Modified-Since", "If-Unmodified-Since")) {
            HttpResponse<byte[]> garbage = served.get(name, header, "garbage");
            assertThat(garbage.statusCode()).as(header).isEqualTo(200);
            assertThat(garbage.body()).isEqualTo(whole.body());
        }
        HttpResponse<byte[]> range = served.get(name, "Range", "bytes=100-199", "If-Range", etag);
        assertThat(range.statusCode()).isEqualTo(206);
        assertThat(range.body()).isEqualTo(java.util.Arrays.copyOfRange(whole.body(), 100, 200));
        resumeWithCurl(name, whole.body());
    }

    /** As docs/web.md shows it: {@code curl -C - -O} on a file broken off after 1,000 bytes. */
    private static void resumeWithCurl(String name, byte[] whole) throws Exception {
        Path curl = Path.of("/usr/bin/curl");
        if (!Files.isExecutable(curl)) {
            assertThat(System.getenv("CI"))
                    .as("curl is missing; .ci/run installs it")
                    .isNull();
            return;
        }
        Path downloads = Files.createDirectories(directory.resolve("resumed"));
        String file = name.substring(name.lastIndexOf('/') + 1);
        Files.write(downloads.resolve(file), java.util.Arrays.copyOf(whole, 1000));
        Process resume = new ProcessBuilder(
                        curl.toString(), "--silent", "--show-error", "--fail", "-C", "-", "-O", served.url(name))
                .directory(downloads.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(resume.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(resume.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(resume.exitValue()).as(output).isZero();
        assertThat(Files.readAllBytes(downloads.resolve(file))).isEqualTo(whole);
    }

    @Test
    void downloadsComeGzippedToAClientThatAsksAndUnpackToTheExportedBytes() throws Exception {
        String name = "/files/solutions-n08.json";
        HttpResponse<byte[]> plain = served.get(name);
        String etag = plain.headers().firstValue("ETag").orElseThrow();

        HttpResponse<byte[]> gzipped = served.get(name, "Accept-Encoding", "gzip, deflate");
        assertThat(gzipped.statusCode()).isEqualTo(200);
        assertThat(gzipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gzipped.headers().firstValue("Vary")).hasValue("Accept-Encoding");
        assertThat(gzipped.headers().firstValue("ETag")).hasValue(etag.replaceAll("\"$", "-gzip\""));
        assertThat(gzipped.body().length).as("compressed").isLessThan(plain.body().length / 4);
        assertThat(new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gzipped.body())).readAllBytes())
                .isEqualTo(plain.body());

        // As the README shows it: curl --compressed, then sha256sum against SHA256SUMS.
        Path curl = Path.of("/usr/bin/curl");
        if (!Files.isExecutable(curl)) {
            assertThat(System.getenv("CI"))
                    .as("curl is missing; .ci/run installs it")
                    .isNull();
            return;
        }
        Path downloads = Files.createDirectories(directory.resolve("curl"));
        Process download = new ProcessBuilder(
                        curl.toString(),
                        "--silent",
                        "--show-error",
                        "--fail",
                        "--compressed",
                        "--dump-header",
                        "headers.txt",
                        "--output",
                        "solutions-n08.json",
                        served.url(name))
                .directory(downloads.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(download.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(download.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(download.exitValue()).as(output).isZero();
        assertThat(Files.readString(downloads.resolve("headers.txt"))).containsIgnoringCase("Content-Encoding: gzip");
        assertThat(ServedResults.sha256(downloads.resolve("solutions-n08.json")))
                .isEqualTo(ServedResults.sha256(plain.body()));
    }

    /**
     * docs/web.md's download recipe, line by line as written, by {@code /bin/sh} in an empty
     * folder: its host and port are the served ones, its sizes (n = 12, 13: stored with every
     * solution by default) the sizes stored so here (n = 8, 7). The resume line finds half a
     * download in place, as after a broken connection. {@code sha256sum -c} then reports each
     * downloaded file OK.
     */
    @Test
    void theDownloadRecipeOfTheDocsWorksAsWritten() throws Exception {
        if (!Files.isExecutable(Path.of("/usr/bin/curl")) || !Files.isExecutable(Path.of("/usr/bin/sha256sum"))) {
            assertThat(System.getenv("CI"))
                    .as("curl or sha256sum is missing; .ci/run installs them")
                    .isNull();
            return;
        }
        List<String> recipe = new ArrayList<>();
        boolean inBlock = false;
        for (String line : Files.readAllLines(Path.of("docs", "web.md"))) {
            if (line.equals("```sh")) {
                inBlock = true;
                recipe.clear();
            } else if (inBlock && line.equals("```")) {
                inBlock = false;
                if (recipe.stream().anyMatch(command -> command.contains("/files/SHA256SUMS"))) {
                    break;
                }
            } else if (inBlock) {
                recipe.add(line);
            }
        }
        assertThat(recipe)
                .anyMatch(line -> line.startsWith("sha256sum -c"))
                .anyMatch(line -> line.startsWith("curl -C - -O"))
                .anyMatch(line -> line.startsWith("curl --compressed"));
        Map<String, String> sizes = new java.util.LinkedHashMap<>();
        java.util.regex.Matcher named =
                java.util.regex.Pattern.compile("-n(\\d\\d)\\.").matcher(String.join("\n", recipe));
        while (named.find()) {
            sizes.putIfAbsent(named.group(), String.format("-n%02d.", 8 - sizes.size()));
        }
        Path folder = Files.createDirectories(directory.resolve("recipe"));
        String check = null;
        for (String line : recipe) {
            String command = line.replace("http://127.0.0.1:8080", served.url(""));
            for (Map.Entry<String, String> size : sizes.entrySet()) {
                command = command.replace(size.getKey(), size.getValue());
            }
            if (command.startsWith("curl -C - ")) {
                String name = command.replaceFirst(".*/files/(\\S+).*", "$1");
                byte[] whole = served.get("/files/" + name).body();
                Files.write(folder.resolve(name), java.util.Arrays.copyOf(whole, whole.length / 2));
            }
            if (command.startsWith("sha256sum")) {
                check = command;
            }
            shell(folder, command);
        }
        assertThat(check).isNotNull();
        long downloads = recipe.stream()
                .filter(line -> line.startsWith("curl") && !line.contains("SHA256SUMS"))
                .count();
        String verdict = shell(folder, check);
        assertThat(verdict.lines()).as(verdict).hasSize((int) downloads).allMatch(result -> result.endsWith(": OK"));
        try (java.util.stream.Stream<Path> downloaded = Files.list(folder)) {
            assertThat(downloaded.map(file -> file.getFileName().toString()).filter(file -> !file.equals("SHA256SUMS")))
                    .hasSize((int) downloads);
        }
    }

    /** Runs {@code command} with {@code /bin/sh} in {@code folder}, which must end with exit 0; its output. */
    private static String shell(Path folder, String command) throws Exception {
        Process process = new ProcessBuilder("/bin/sh", "-c", command)
                .directory(folder.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(command + "\n" + output).isZero();
        return output;
    }

    /** {@code sha256sum -c --ignore-missing SHA256SUMS} over one downloaded file, as the README says. */
    private static void checkWithSha256sum(String sums) throws Exception {
        Path sha256sum = Path.of("/usr/bin/sha256sum");
        if (!Files.isExecutable(sha256sum)) {
            return;
        }
        Path downloads = Files.createDirectories(directory.resolve("downloads"));
        Files.writeString(downloads.resolve("SHA256SUMS"), sums);
        Files.write(
                downloads.resolve("fundamental-n08.json"),
                served.get("/files/fundamental-n08.json").body());
        Process check = new ProcessBuilder(sha256sum.toString(), "-c", "--ignore-missing", "SHA256SUMS")
                .directory(downloads.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(check.exitValue()).as(output).isZero();
        assertThat(output).isEqualTo("fundamental-n08.json: OK\n");
    }

    @Test
    void pagesCarryTheirSecurityHeadersAndShowWhatIsStored() throws Exception {
        HttpResponse<byte[]> report = served.get("/");
        assertThat(report.statusCode()).isEqualTo(200);
        assertThat(report.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(policy -> assertThat(policy)
                        .contains("default-src 'none'")
                        .contains("style-src 'self'")
                        .doesNotContain("unsafe"));
        assertThat(report.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        String page = ServedResults.text(report);
        assertThat(page)
                .doesNotContain("<script")
                .doesNotContain("style=\"")
                .doesNotContainPattern("(src|href)=\"(https?:)?//");
        assertThat(served.get("/nqueens.css").statusCode()).isEqualTo(200);
        assertThat(ServedResults.text(served.get("/sizes/10")))
                .contains("no solutions are stored")
                .doesNotContain("data-placement");
        String nine = ServedResults.text(served.get("/sizes/9"));
        assertThat(nine.split("data-placement=", -1)).hasSize(1 + 46);
        assertThat(nine).doesNotContain("/sizes/9/classes/");
        String members = ServedResults.text(served.get("/sizes/8/classes/1"));
        assertThat(members.split("data-placement=", -1)).hasSize(1 + 8);
        assertThat(members).contains("data-placement=\"1 5 8 6 3 7 2 4\"");
    }

    @Test
    void healthAndMetricsComeFromTheJobRepositoryAndTheSummaries() throws Exception {
        HttpResponse<byte[]> health = served.get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        JsonNode service = JSON.readTree(health.body());
        assertThat(service.get("status").asString()).isEqualTo("UP");
        assertThat(service.get("components").get("db").get("status").asString()).isEqualTo("UP");
        assertThat(service.get("components").has("nightlyRun")).isFalse();
        assertThat(service.get("components").has("rabbit"))
                .as("the broker only counts in cluster mode")
                .isFalse();
        JsonNode nightly = JSON.readTree(served.get("/actuator/health/nightly").body());
        assertThat(nightly.get("status").asString()).isEqualTo("UP");
        assertThat(nightly.get("components")
                        .get("nightlyRun")
                        .get("details")
                        .get("status")
                        .asString())
                .isEqualTo("COMPLETED");

        String metrics = ServedResults.text(served.get("/actuator/prometheus"));
        assertThat(metrics)
                .contains("nqueens_size_solutions{n=\"8\"} 92.0")
                .contains("nqueens_size_fundamental_solutions{n=\"10\"} 92.0")
                .contains("nqueens_sizes_published 10.0")
                .contains("nqueens_last_run_status{status=\"COMPLETED\"} 1.0")
                .contains("nqueens_last_run_status{status=\"FAILED\"} 0.0")
                .containsPattern("nqueens_last_run_duration_seconds \\d");
    }

    @Test
    void readingCommandsRunBesideServeAndChangeNothingWhileARunIsRefused() throws Exception {
        for (String[] command : List.of(
                new String[] {"sql", "SELECT COUNT(*) AS sizes FROM board_summary"},
                new String[] {"show", "8", "--fundamental"},
                new String[] {"history"},
                new String[] {"verify"})) {
            NqueensProcess.Result result = NqueensProcess.run(directory, command);
            assertThat(result.exitCode())
                    .as(String.join(" ", command) + ": " + result.err())
                    .isZero();
        }
        assertThat(ServedResults.contents(directory)).isEqualTo(databaseBefore);
        // Read-only by the login, not by the statement's text: the reader's session can change nothing.
        try (Connection reader = TestDatabases.readingThroughHolder(directory);
                Statement statement = reader.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> statement.executeUpdate("DELETE FROM board_summary"))
                    .hasMessageContaining("Not enough rights");
        }

        NqueensProcess.Result run = NqueensProcess.run(directory, "run", "--sizes", "4");
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err())
                .startsWith("nqueens: the database jdbc:h2:file:./data/nqueens is in use by `nqueens serve`" + " (pid ")
                .contains("http://127.0.0.1:" + served.port + "/")
                .contains("whose nightly schedule is off (nqueens.schedule.enabled=false)");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void aSettingOfTheWebServerIsHonouredOnANewDatabaseAndAnExistingOne(@TempDir Path other) throws Exception {
        // No database yet: serve creates it; then it finds it at this build's schema version.
        assertThat(serveAndAskForInfo(other, Map.of())).isEqualTo(404);
        assertThat(serveAndAskForInfo(other, Map.of())).isEqualTo(404);
        assertThat(serveAndAskForInfo(other, Map.of("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "health,info")))
                .isEqualTo(200);
    }

    /** The status of {@code /actuator/info} from a serve started in {@code folder}. */
    private static int serveAndAskForInfo(Path folder, Map<String, String> variables) throws Exception {
        int port = ServedResults.freePort();
        NqueensProcess serve = NqueensProcess.start(folder, variables, "serve", "--port", String.valueOf(port));
        serve.awaitLine(line -> line.startsWith("Serving http://127.0.0.1:" + port + "/"), Duration.ofMinutes(2));
        HttpResponse<byte[]> info = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/info"))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        NqueensProcess.Result stopped = serve.terminate();
        assertThat(stopped.err()).as("nothing on stderr").isEmpty();
        return info.statusCode();
    }

    @Test
    void readingCommandsNeverCreateADatabase(@TempDir Path empty) throws Exception {
        for (String[] command : List.of(new String[] {"show", "8"}, new String[] {"sql", "SELECT 1"})) {
            NqueensProcess.Result result = NqueensProcess.run(empty, command);
            assertThat(result.exitCode()).isEqualTo(4);
            assertThat(result.err().lines())
                    .as("one line")
                    .singleElement(as(InstanceOfAssertFactories.STRING))
                    .startsWith("nqueens: ")
                    .contains("jdbc:h2:file:./data/nqueens", "./nqueens run");
        }
        try (var files = Files.list(empty)) {
            assertThat(files.map(file -> file.getFileName().toString()).collect(Collectors.toList()))
                    .doesNotContain("data", "output");
        }
    }

    @Test
    void theScheduleRunsInsideServeAndANightWithNothingNewRewritesNoFile(@TempDir Path scheduled) throws Exception {
        String yaml = "nqueens:\n  sizes: " + ServedResults.SIZES + "\n  storage:\n    all-up-to: 8\n"
                + "    fundamental-up-to: 9\n  schedule:\n    cron: \"*/3 * * * * *\"\n";
        try (ServedResults schedule = ServedResults.start(scheduled, yaml)) {
            HttpResponse<byte[]> manifestBefore = schedule.get("/files/manifest.json");
            String solutionsEtag = schedule.get("/files/solutions-n08.csv")
                    .headers()
                    .firstValue("ETag")
                    .orElseThrow();
            String solutionsModified = schedule.get("/files/solutions-n08.csv")
                    .headers()
                    .firstValue("Last-Modified")
                    .orElseThrow();
            // A night that rewrote the files would show in Last-Modified (whole seconds) only from the second after
            // the one they were written in: the night looked at is one that starts once the clock is past it.
            Instant rewriteShows = DateTimeFormatter.RFC_1123_DATE_TIME
                    .parse(solutionsModified, Instant::from)
                    .plusSeconds(1);
            await("the clock past the files' second")
                    .atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> !Instant.now().isBefore(rewriteShows));
            String night = schedule.serve.awaitLineAfter(
                    schedule.serve.lineCount(),
                    line -> line.contains(" run for ") && line.endsWith(" started"),
                    Duration.ofMinutes(2));
            String runFor = night.substring(night.indexOf(" run for "), night.length() - " started".length());
            schedule.serve.awaitLine(line -> line.contains(runFor + " ended COMPLETED"), Duration.ofMinutes(2));

            NqueensProcess.Result run = NqueensProcess.run(scheduled, "run");
            assertThat(run.exitCode()).isEqualTo(3);
            assertThat(run.err())
                    .contains("is in use by `nqueens serve`")
                    .contains("which runs the nightly job itself on its schedule '*/3 * * * * *'");

            // A night with nothing new rewrites nothing, not even the manifest: a download resumes across it.
            String oldEtag = manifestBefore.headers().firstValue("ETag").orElseThrow();
            HttpResponse<byte[]> resumed =
                    schedule.get("/files/manifest.json", "Range", "bytes=10-", "If-Range", oldEtag);
            assertThat(resumed.statusCode()).as("the manifest is the same file").isEqualTo(206);
            assertThat(resumed.headers().firstValue("ETag")).hasValue(oldEtag);
            assertThat(resumed.body())
                    .isEqualTo(java.util.Arrays.copyOfRange(manifestBefore.body(), 10, manifestBefore.body().length));
            HttpResponse<byte[]> solutions = schedule.get("/files/solutions-n08.csv");
            assertThat(solutions.headers().firstValue("ETag")).hasValue(solutionsEtag);
            assertThat(solutions.headers().firstValue("Last-Modified")).hasValue(solutionsModified);
            JsonNode nightly =
                    JSON.readTree(schedule.get("/actuator/health/nightly").body());
            assertThat(nightly.get("status").asString()).isEqualTo("UP");
        }
    }

    /**
     * Each night runs inside serve's own JVM, launched on its scheduler's thread, while the pages go
     * on answering and the reading commands read through serve's H2 server; SIGTERM to serve stops
     * the night at a chunk boundary.
     */
    @Test
    void aNightRunsInsideServeWhileThePagesAndTheReadingCommandsAnswer(@TempDir Path scheduled) throws Exception {
        // The night stores every solution of 9-14 (365,596 for n = 14): some seconds of work.
        String yaml = "nqueens:\n  sizes: 1-14\n  storage:\n    all-up-to: 14\n  progress-interval: 1s\n"
                + "  schedule:\n    cron: \"*/2 * * * * *\"\n";
        try (ServedResults schedule = ServedResults.start(scheduled, yaml)) {
            schedule.serve.awaitLine(
                    line -> line.contains(" run for ") && line.endsWith(" started"), Duration.ofMinutes(1));
            // Pages asked for over and over until the night shows progress on its largest size: each must answer.
            AtomicInteger pagesDuringTheNight = new AtomicInteger();
            await("progress on n = 14")
                    .atMost(Duration.ofMinutes(2))
                    .pollInSameThread()
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        HttpResponse<byte[]> sizes = schedule.get("/api/sizes");
                        assertThat(sizes.statusCode())
                                .as(ServedResults.text(sizes))
                                .isEqualTo(200);
                        pagesDuringTheNight.incrementAndGet();
                        return NqueensProcess.showsProgress(
                                schedule.serve
                                        .output()
                                        .lines()
                                        .reduce((a, b) -> b)
                                        .orElse(""),
                                14);
                    });
            assertThat(pagesDuringTheNight.get())
                    .as("pages answered during the night")
                    .isPositive();
            assertThat(schedule.serve.output()).doesNotContain(" ended ");
            assertThat(ProcessHandle.of(schedule.serve.pid()).orElseThrow().descendants())
                    .as("no JVM for the night")
                    .isEmpty();

            NqueensProcess.Result read =
                    NqueensProcess.run(scheduled, "sql", "SELECT COUNT(*) AS sizes FROM board_summary");
            assertThat(read.exitCode()).as(read.err()).isZero();
            assertThat(read.out()).containsPattern("\\n1[0-3]\\n");
            NqueensProcess.Result stopped = schedule.serve.terminate();
            assertThat(stopped.err()).contains("nqueens: stopping at the next chunk boundary; the next run resumes");
            assertThat(stopped.out()).contains("ended STOPPED").contains("serve stopped.");
        }
    }

    @Test
    void aFailedLastRunTakesTheNightlyGroupDownButNotTheService(@TempDir Path failed) throws Exception {
        NqueensProcess.Result run = NqueensProcess.run(failed, "run", "--sizes", "1-4");
        assertThat(run.exitCode()).isZero();
        // As the next run records a run that died: the job repository says FAILED, with the reason.
        try (Connection connection = TestDatabases.openH2(failed.resolve("data/nqueens"));
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE batch_job_execution SET status = 'FAILED', exit_code = 'FAILED',"
                    + " exit_message = 'java.lang.IllegalStateException: n=4 disagrees with the known values'");
        }
        Files.createDirectories(failed.resolve("config"));
        Files.writeString(failed.resolve("config/application.yml"), "nqueens:\n  schedule:\n    enabled: false\n");
        int port = ServedResults.freePort();
        NqueensProcess serve = NqueensProcess.start(failed, "serve", "--port", String.valueOf(port));
        try {
            serve.awaitLine(line -> line.startsWith("Serving"), Duration.ofMinutes(2));
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            HttpResponse<String> nightly = client.send(
                    java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + port + "/actuator/health/nightly"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(nightly.statusCode()).isEqualTo(503);
            JsonNode details = JSON.readTree(nightly.body())
                    .get("components")
                    .get("nightlyRun")
                    .get("details");
            assertThat(details.get("reason").asString())
                    .isEqualTo("java.lang.IllegalStateException: n=4 disagrees with the known values");
            HttpResponse<String> service = client.send(
                    java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(service.statusCode()).isEqualTo(200);
            HttpResponse<String> metrics = client.send(
                    java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.body()).contains("nqueens_last_run_status{status=\"FAILED\"} 1.0");
        } finally {
            serve.terminate();
        }
        // Another serve on the same folder once this one has stopped: a port in use is bad input.
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            NqueensProcess.Result refused =
                    NqueensProcess.run(failed, "serve", "--port", String.valueOf(taken.getLocalPort()));
            assertThat(refused.exitCode()).isEqualTo(2);
            assertThat(refused.err().lines())
                    .as("one line")
                    .singleElement(as(InstanceOfAssertFactories.STRING))
                    .startsWith("nqueens: ")
                    .contains("port " + taken.getLocalPort(), "--port", "server.port");
        }
    }

    @Test
    @org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable(
            named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+",
            disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void onPostgresServeAndRunsCoexistAndTheirResultsShowAtOnce(@TempDir Path postgres) throws Exception {
        Map<String, String> environment = TestDatabases.postgresEnvironment("nqueens_serve_ft");
        NqueensProcess.Result first = NqueensProcess.run(postgres, environment, "run", "--sizes", "1-6");
        assertThat(first.exitCode()).as(first.err()).isZero();
        Files.createDirectories(postgres.resolve("config"));
        Files.writeString(postgres.resolve("config/application.yml"), "nqueens:\n  schedule:\n    enabled: false\n");
        int port = ServedResults.freePort();
        NqueensProcess serve = NqueensProcess.start(postgres, environment, "serve", "--port", String.valueOf(port));
        try {
            serve.awaitLine(line -> line.startsWith("Serving"), Duration.ofMinutes(2));
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            assertThat(JSON.readTree(get(client, port, "/api/sizes/6"))
                            .get("total_solutions")
                            .asLong())
                    .isEqualTo(4);

            NqueensProcess.Result beside = NqueensProcess.run(postgres, environment, "run", "--sizes", "7");
            assertThat(beside.exitCode()).as(beside.err()).isZero();
            assertThat(JSON.readTree(get(client, port, "/api/sizes/7"))
                            .get("total_solutions")
                            .asLong())
                    .isEqualTo(40);
            assertThat(JSON.readTree(get(client, port, "/api/runs")).get("runs"))
                    .hasSize(2);
            assertThat(JSON.readTree(get(client, port, "/actuator/health"))
                            .get("status")
                            .asString())
                    .isEqualTo("UP");
            assertThat(JSON.readTree(get(client, port, "/actuator/health/nightly"))
                            .get("status")
                            .asString())
                    .isEqualTo("UP");
        } finally {
            serve.terminate();
        }
    }

    /**
     * A night of serve's schedule that cannot start (another run holds the run lock) takes the nightly
     * group down, naming it, until a run finishes its night.
     */
    @Test
    @org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable(
            named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+",
            disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void onPostgresANightThatCannotStartTakesTheNightlyGroupDownUntilANightFinishes(@TempDir Path postgres)
            throws Exception {
        Map<String, String> environment = TestDatabases.postgresEnvironment("nqueens_serve_locked");
        NqueensProcess.Result migrated = NqueensProcess.run(postgres, environment, "run", "--sizes", "1");
        assertThat(migrated.exitCode()).as(migrated.err()).isZero();
        Files.createDirectories(postgres.resolve("config"));
        Files.writeString(
                postgres.resolve("config/application.yml"),
                "nqueens:\n  sizes: 1-4\n  schedule:\n" + "    cron: \"*/2 * * * * *\"\n");
        // Another run holds the database: the run lock's row, taken by this process with its heartbeat
        // going, as a run on another machine would hold it.
        TestDatabases.HeldRunLock held = TestDatabases.holdRunLock(environment);
        int port = ServedResults.freePort();
        NqueensProcess serve = NqueensProcess.start(postgres, environment, "serve", "--port", String.valueOf(port));
        try {
            String refused = serve.awaitLine(line -> line.contains(" could not start: "), Duration.ofMinutes(2));
            assertThat(refused).as("the refusal names the holder").contains(ThisProcess.id());
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            HttpResponse<String> down = client.send(
                    java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + port + "/actuator/health/nightly"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
            JsonNode details = JSON.readTree(down.body())
                    .get("components")
                    .get("nightlyRun")
                    .get("details");
            assertThat(details.get("reason").asString())
                    .contains(" could not start at ")
                    .contains(refused.substring(refused.indexOf(" could not start: ") + " could not start: ".length()));
            assertThat(details.has("failedStart")).isTrue();

            // The other run ends: the next night starts and finishes, and the group is up again.
            held.close();
            await().atMost(Duration.ofMinutes(2))
                    .untilAsserted(() -> assertThat(JSON.readTree(get(client, port, "/actuator/health/nightly"))
                                    .get("status")
                                    .asString())
                            .isEqualTo("UP"));
        } finally {
            held.close();
            serve.terminate();
        }
    }

    private static String get(java.net.http.HttpClient client, int port, String path) throws Exception {
        HttpResponse<String> response = client.send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }
}
