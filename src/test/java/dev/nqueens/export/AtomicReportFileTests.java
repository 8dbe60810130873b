package dev.nqueens.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicReportFileTests {

    private static final String SHA256_OF_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @TempDir
    Path folder;

    @Test
    void aNewFileAppearsOnlyOnCommitWithItsSizeAndDigest() throws IOException {
        Path target = folder.resolve("summary.csv");
        try (AtomicReportFile file = new AtomicReportFile(target)) {
            file.stream().write("abc".getBytes(StandardCharsets.US_ASCII));
            assertThat(target).doesNotExist();
            assertThat(file.commit()).isEqualTo(new ManifestEntry("summary.csv", 3, SHA256_OF_ABC));
        }
        assertThat(target).hasContent("abc");
        assertThat(folder.resolve(".summary.csv.partial")).doesNotExist();
    }

    @Test
    void theSameBytesAgainLeaveTheFileAndItsModificationTimeAlone() throws IOException {
        Path target = folder.resolve("summary.csv");
        Files.writeString(target, "abc");
        FileTime longAgo = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
        Files.setLastModifiedTime(target, longAgo);
        Object inode = Files.readAttributes(target, java.nio.file.attribute.BasicFileAttributes.class)
                .fileKey();

        try (AtomicReportFile file = new AtomicReportFile(target)) {
            file.stream().write("abc".getBytes(StandardCharsets.US_ASCII));
            assertThat(file.commit().sha256()).isEqualTo(SHA256_OF_ABC);
        }
        assertThat(Files.getLastModifiedTime(target)).isEqualTo(longAgo);
        assertThat(Files.readAttributes(target, java.nio.file.attribute.BasicFileAttributes.class)
                        .fileKey())
                .isEqualTo(inode);
        assertThat(folder.resolve(".summary.csv.partial")).doesNotExist();
    }

    @Test
    void otherBytesOfTheSameSizeReplaceTheFile() throws IOException {
        Path target = folder.resolve("summary.csv");
        Files.writeString(target, "abd");
        FileTime longAgo = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
        Files.setLastModifiedTime(target, longAgo);

        try (AtomicReportFile file = new AtomicReportFile(target)) {
            file.stream().write("abc".getBytes(StandardCharsets.US_ASCII));
            file.commit();
        }
        assertThat(target).hasContent("abc");
        assertThat(Files.getLastModifiedTime(target)).isNotEqualTo(longAgo);
    }

    @Test
    void anUncommittedFileLeavesNothingBehind() throws IOException {
        Path target = folder.resolve("summary.csv");
        try (AtomicReportFile file = new AtomicReportFile(target)) {
            file.stream().write("abc".getBytes(StandardCharsets.US_ASCII));
        }
        try (var listing = Files.list(folder)) {
            assertThat(listing).isEmpty();
        }
    }
}
