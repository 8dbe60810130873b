package dev.nqueens.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.InProcess;
import dev.nqueens.NqueensProcess;
import dev.nqueens.TestResources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The export folder mirrors the database, through the commands a user runs (in this JVM): a size
 * stored at a lower level loses the files of the level it no longer has, a report the manifest
 * does not list is removed by the next run even when the reports are otherwise up to date, files
 * of other names are left alone, and {@code verify} names whatever the manifest does not list.
 */
@ResourceLock(TestResources.TEST_JVM)
class ExportFolderIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path work;

    @Test
    void aSizeStoredAtALowerLevelLosesTheFilesOfTheLevelItNoLongerHas() throws Exception {
        NqueensProcess.Result all = InProcess.run(work, "run", "--sizes", "8-9", "--store-all-up-to", "9");
        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(output().resolve("solutions-n09.json")).exists();
        Path foreign = Files.writeString(output().resolve("notes.txt"), "the operator's own file");

        NqueensProcess.Result lowered = lowerToFundamental(9);

        assertThat(lowered.out()
                        .lines()
                        .filter(line -> line.contains("solutions-n09.csv") && line.contains("solutions-n09.json")))
                .as(lowered.out())
                .hasSize(1);
        assertThat(output().resolve("solutions-n09.csv")).doesNotExist();
        assertThat(output().resolve("solutions-n09.json")).doesNotExist();
        assertThat(foreign).as("a file of another name is never the export's").hasContent("the operator's own file");
        assertThat(manifestNames())
                .containsExactly(
                        "fundamental-n08.csv",
                        "fundamental-n08.json",
                        "fundamental-n09.csv",
                        "fundamental-n09.json",
                        "solutions-n08.csv",
                        "solutions-n08.json",
                        "summary.csv",
                        "summary.json");
        assertThat(reports()).containsExactlyElementsOf(manifestNames());
        assertThat(sha256sumCheck()).hasSize(manifestNames().size() + 1).allMatch(line -> line.endsWith(": OK"));

        NqueensProcess.Result verify = InProcess.run(work, "verify");
        assertThat(verify.exitCode()).isEqualTo(1);
        assertThat(failedLines(verify))
                .singleElement()
                .asString()
                .contains("export unlisted files")
                .contains("notes.txt");
        Files.delete(foreign);
        NqueensProcess.Result verified = InProcess.run(work, "verify");
        assertThat(verified.exitCode()).as(verified.out()).isZero();
    }

    @Test
    void aReportTheManifestDoesNotListIsAFindingUntilTheNextRunRemovesItThoughTheReportsAreUpToDate() throws Exception {
        // The plain run of this install: sizes 8-9, n = 9 stored with its classes only.
        Files.createDirectories(work.resolve("config"));
        Files.writeString(
                work.resolve("config/application.yml"), "nqueens:\n  sizes: 8-9\n  storage:\n    all-up-to: 8\n");
        NqueensProcess.Result first = InProcess.run(work, "run");
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(output().resolve("solutions-n09.csv")).doesNotExist();
        NqueensProcess.Result upToDate = InProcess.run(work, "run");
        assertThat(upToDate.out()).contains("Every size was already stored");
        FileTime manifestWritten = Files.getLastModifiedTime(output().resolve(ReportExporter.MANIFEST));
        // As an earlier build left them: n = 9's solutions of a time it was stored ALL, n = 14's of a
        // time it was stored at all.
        Files.copy(output().resolve("solutions-n08.csv"), output().resolve("solutions-n09.csv"));
        Files.copy(output().resolve("fundamental-n08.json"), output().resolve("fundamental-n14.json"));

        NqueensProcess.Result found = InProcess.run(work, "verify");
        assertThat(found.exitCode()).isEqualTo(1);
        assertThat(failedLines(found))
                .singleElement()
                .asString()
                .contains("export unlisted files")
                .contains("fundamental-n14.json")
                .contains("(and 1 more)");

        NqueensProcess.Result next = InProcess.run(work, "run");
        assertThat(next.exitCode()).as(next.err()).isZero();
        assertThat(next.out()).contains("Every size was already stored");
        assertThat(next.out()
                        .lines()
                        .filter(line -> line.contains("fundamental-n14.json") && line.contains("solutions-n09.csv")))
                .as(next.out())
                .hasSize(1);
        assertThat(output().resolve("solutions-n09.csv")).doesNotExist();
        assertThat(output().resolve("fundamental-n14.json")).doesNotExist();
        assertThat(Files.getLastModifiedTime(output().resolve(ReportExporter.MANIFEST)))
                .as("the reports were up to date: the manifest is not rewritten")
                .isEqualTo(manifestWritten);
        assertThat(reports()).containsExactlyElementsOf(manifestNames());
        NqueensProcess.Result verified = InProcess.run(work, "verify");
        assertThat(verified.exitCode()).as(verified.out()).isZero();

        NqueensProcess.Result quiet = InProcess.run(work, "run");
        assertThat(quiet.out()).as("nothing to remove, nothing said").doesNotContain("removed");
    }

    /**
     * Stores size {@code n}, now stored with every solution, with its class representatives only.
     * (The one place the tests say how a size goes down a level.)
     */
    private NqueensProcess.Result lowerToFundamental(int n) {
        NqueensProcess.Result run = InProcess.run(
                work,
                "run",
                "--sizes",
                Integer.toString(n),
                "--store-all-up-to",
                Integer.toString(n - 1),
                "--lower",
                Integer.toString(n));
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run;
    }

    private Path output() {
        return work.resolve("output");
    }

    /** The names the manifest lists, sorted. */
    private List<String> manifestNames() throws IOException {
        List<String> names = new ArrayList<>();
        for (JsonNode file : JSON.readTree(
                        output().resolve(ReportExporter.MANIFEST).toFile())
                .get("files")) {
            names.add(file.get("name").asString());
        }
        return List.copyOf(new TreeSet<>(names));
    }

    /** The files of the folder under the names of reports, sorted. */
    private List<String> reports() throws IOException {
        try (Stream<Path> files = Files.list(output())) {
            return files.map(file -> file.getFileName().toString())
                    .filter(ReportExporter::isReportName)
                    .sorted()
                    .toList();
        }
    }

    /** {@code sha256sum -c SHA256SUMS} in the folder, as a user checks it: must pass; its lines. */
    private List<String> sha256sumCheck() throws Exception {
        Process check = new ProcessBuilder("sha256sum", "-c", ReportExporter.CHECKSUMS)
                .directory(output().toFile())
                .redirectErrorStream(true)
                .start();
        String said = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(check.exitValue()).as(said).isZero();
        return said.lines().toList();
    }

    private static List<String> failedLines(NqueensProcess.Result verify) {
        return verify.out().lines().filter(line -> line.contains(" FAILED ")).toList();
    }
}
