package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.export.Sha256;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An opened export file is the version it was opened as: an export renaming a new file into place
 * meanwhile changes nothing of what it reads, whole or from a position.
 */
class ExportFileTests {

    @TempDir
    Path output;

    private ExportFolder folder;

    @BeforeEach
    void aFolderWithOneListedFile() throws IOException {
        Files.writeString(output.resolve("summary.csv"), "n\n8\n");
        Files.writeString(
                output.resolve("manifest.json"),
                "{\"files\":[{\"name\":\"summary.csv\",\"bytes\":4," + "\"sha256\":\"00\"}]}");
        folder = new ExportFolder(output);
    }

    @Test
    void aNewVersionRenamedIntoPlaceDoesNotChangeWhatAnOpenedFileReads() throws IOException {
        String before = "\"" + Sha256.of(output.resolve("summary.csv")) + "\"";
        try (ExportFile opened = ExportFile.open(folder, "summary.csv")) {
            Path next = Files.writeString(output.resolve(".summary.csv.partial"), "n\n8\n9\n");
            Files.move(
                    next,
                    output.resolve("summary.csv"),
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);

            assertThat(opened.etag()).isEqualTo(before);
            assertThat(opened.contentLength()).isEqualTo(4);
            assertThat(read(opened.getInputStream())).isEqualTo("n\n8\n");
            try (InputStream fromTwo = opened.getInputStream()) {
                assertThat(fromTwo.skip(2)).isEqualTo(2);
                assertThat(new String(fromTwo.readAllBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("8\n");
                assertThat(fromTwo.skip(10)).isZero();
                assertThat(fromTwo.read()).isEqualTo(-1);
            }
            try (ExportFile reopened = ExportFile.open(folder, "summary.csv")) {
                assertThat(reopened.etag()).isNotEqualTo(before);
                assertThat(read(reopened.getInputStream())).isEqualTo("n\n8\n9\n");
            }
        }
    }

    /** Small reads, skips and a transfer across its 64 KB blocks give the file's bytes in order. */
    @Test
    void readsAndSkipsAcrossBlocksGiveTheFilesBytes() throws IOException {
        byte[] bytes = new byte[200_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + i / 251);
        }
        Files.write(output.resolve("summary.csv"), bytes);
        Files.writeString(output.resolve("manifest.json"), "{\"files\":[{\"name\":\"summary.csv\"}]}");
        try (ExportFile opened = ExportFile.open(folder, "summary.csv");
                InputStream in = opened.getInputStream()) {
            byte[] ten = new byte[10];
            assertThat(in.read(ten, 0, 10)).isEqualTo(10);
            assertThat(ten).isEqualTo(Arrays.copyOf(bytes, 10));
            assertThat(in.skip(100_000)).isEqualTo(100_000);
            assertThat(in.read()).isEqualTo(bytes[100_010] & 0xff);
            assertThat(in.available()).isEqualTo(bytes.length - 100_011);
            ByteArrayOutputStream rest = new ByteArrayOutputStream();
            assertThat(in.transferTo(rest)).isEqualTo(bytes.length - 100_011);
            assertThat(rest.toByteArray()).isEqualTo(Arrays.copyOfRange(bytes, 100_011, bytes.length));
            assertThat(in.read(ten, 0, 10)).isEqualTo(-1);
        }
    }

    /** Through {@link InputStream#transferTo}, as Spring's resource converter reads it. */
    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (in) {
            in.transferTo(out);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
