package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.export.ManifestEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.web.ErrorResponseException;

/** The downloads see only the files the manifest lists, and the manifest and checksum list themselves. */
class ExportFolderTests {

    @TempDir
    Path output;

    private ExportFolder folder;

    @BeforeEach
    void aFolderWithAReportTheManifestNoLongerLists() throws IOException {
        Files.writeString(output.resolve("summary.csv"), "n\n8\n");
        Files.writeString(output.resolve("solutions-n14.csv"), "left from when n = 14 was stored ALL\n");
        Files.writeString(output.resolve("notes.txt"), "the operator's own file\n");
        Files.writeString(output.resolve("SHA256SUMS"), "");
        writeManifest("summary.csv");
        folder = new ExportFolder(output);
    }

    @Test
    void onlyTheListedFilesTheManifestAndTheChecksumListAreServed() throws IOException {
        assertThat(folder.current("summary.csv").bytes()).isEqualTo(4);
        assertThat(folder.current("manifest.json").path()).isEqualTo(output.resolve("manifest.json"));
        assertThat(folder.current("SHA256SUMS").bytes()).isZero();
        assertNotFound("solutions-n14.csv");
        assertNotFound("notes.txt");
        assertThat(folder.listed())
                .extracting(ManifestEntry::name)
                .containsExactly("summary.csv", "manifest.json", "SHA256SUMS");
    }

    @Test
    void aNewManifestIsReadWhenItReplacesTheOld() throws IOException {
        assertNotFound("solutions-n14.csv");
        writeManifest("summary.csv", "solutions-n14.csv");
        assertThat(folder.current("solutions-n14.csv").bytes()).isPositive();
        writeManifest("summary.csv");
        assertNotFound("solutions-n14.csv");
    }

    @Test
    void aDamagedManifestListsNothingButItselfIsStillServed() throws IOException {
        Files.writeString(output.resolve("manifest.json"), "{\"files\": [");
        assertNotFound("summary.csv");
        assertThat(folder.current("manifest.json").bytes()).isPositive();
    }

    private void assertNotFound(String name) {
        assertThatThrownBy(() -> folder.current(name))
                .isInstanceOf(ErrorResponseException.class)
                .satisfies(e -> assertThat(
                                ((ErrorResponseException) e).getStatusCode().value())
                        .isEqualTo(404));
    }

    /** A manifest listing {@code names}, renamed into place as the export does. */
    private void writeManifest(String... names) throws IOException {
        StringBuilder files = new StringBuilder();
        for (String name : names) {
            files.append(files.isEmpty() ? "" : ",")
                    .append("{\"name\":\"")
                    .append(name)
                    .append("\",\"bytes\":1,\"sha256\":\"00\"}");
        }
        Path temporary = Files.writeString(
                output.resolve(".manifest.json.partial"), "{\"generated_at\":\"now\"," + "\"files\":[" + files + "]}");
        Files.move(
                temporary,
                output.resolve("manifest.json"),
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }
}
