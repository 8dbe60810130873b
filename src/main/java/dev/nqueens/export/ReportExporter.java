package dev.nqueens.export;

import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.springframework.stereotype.Component;
import tools.jackson.databind.SequenceWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Exports what the database holds into a folder: {@code summary.json} and {@code summary.csv}
 * for all sizes, per size stored with every solution {@code solutions-nNN.json|csv} and
 * {@code fundamental-nNN.json|csv}, then {@code manifest.json} naming every file with its size
 * and SHA-256, and last {@code SHA256SUMS} with the same digests (and the manifest's) in the format
 * of {@code sha256sum}, so {@code sha256sum -c --ignore-missing SHA256SUMS} checks whatever was
 * downloaded. Rows are streamed from the database to the files; memory use does not grow with
 * the size, and each size's two files are written from one read of its rows ({@link SizeFiles}). A
 * file whose bytes did not change is not rewritten (see {@link AtomicReportFile}).
 */
@Component
public class ReportExporter {

    /**
     * @param summaryVersion what the files were exported from: a digest of the {@code board_summary}
     *     rows and of this export's format, so an export of the same rows can be skipped
     */
    private record Manifest(String generatedAt, String summaryVersion, List<ManifestEntry> files) {
    }

    /** Bumped when the files' format changes: a new build then writes them again. */
    private static final String FORMAT = "nqueens export v1";

    private final SolutionStore store;
    private final JsonMapper json = Rows.JSON;

    public ReportExporter(SolutionStore store) {
        this.store = store;
    }

    /** File name of the per-size solutions report, without extension: {@code solutions-n08}. */
    public static String solutionsName(int n) {
        return String.format("solutions-n%02d", n);
    }

    /** File name of the per-size class representatives report, without extension. */
    public static String fundamentalName(int n) {
        return String.format("fundamental-n%02d", n);
    }

    /** The name of the checksum list written beside the manifest. */
    public static final String CHECKSUMS = "SHA256SUMS";

    /** The name of the manifest. */
    public static final String MANIFEST = "manifest.json";

    /**
     * Exports every stored size into {@code folder} (created if missing) and returns the manifest
     * entries, then the manifest's and the checksum list's.
     *
     * @throws ExportException if a file cannot be written; files already complete stay
     */
    public List<ManifestEntry> exportAll(Path folder) {
        try {
            Files.createDirectories(folder);
            deleteLeftoverPartials(folder);
            List<BoardSummary> summaries = store.summaries();
            String version = summaryVersion(summaries);
            Optional<List<ManifestEntry>> upToDate = upToDate(folder, version);
            if (upToDate.isPresent()) {
                return upToDate.get();
            }
            List<ManifestEntry> files = new ArrayList<>();
            files.add(write(folder.resolve("summary.json"), out -> json.writerWithDefaultPrettyPrinter()
                    .writeValue(out, new SummaryReport(summaries))));
            files.add(writeCsv(folder.resolve("summary.csv"), BoardSummary.class, writer -> summaries
                    .forEach(row -> writer.write(row))));
            for (BoardSummary summary : summaries) {
                if (summary.stored() == StoredLevel.ALL) {
                    files.addAll(SizeFiles.solutions(folder, summary, store));
                }
                if (summary.stored() != StoredLevel.COUNT) {
                    files.addAll(SizeFiles.classes(folder, summary, store));
                }
            }
            Manifest manifest = new Manifest(
                    OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString(), version, files);
            List<ManifestEntry> all = new ArrayList<>(files);
            all.add(write(folder.resolve(MANIFEST),
                    out -> json.writerWithDefaultPrettyPrinter().writeValue(out, manifest)));
            List<ManifestEntry> summed = List.copyOf(all);
            all.add(write(folder.resolve(CHECKSUMS), out -> out.write(checksums(summed))));
            return all;
        } catch (IOException e) {
            throw new ExportException(folder, e);
        }
    }

    private record SummaryReport(List<BoardSummary> sizes) {
    }

    /** A digest of the published sizes' rows (counts, level, when and how fast computed) and of the format. */
    static String summaryVersion(List<BoardSummary> summaries) {
        StringBuilder text = new StringBuilder(FORMAT).append('\n');
        summaries.forEach(row -> text.append(row).append('\n'));
        return Sha256.hex(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * The manifest's files, when the folder holds an export of exactly these rows and every file it
     * lists is there with its size: then nothing is written, not even the manifest (one query and a
     * look at the files, instead of reading every stored row again).
     */
    private Optional<List<ManifestEntry>> upToDate(Path folder, String version) {
        Path manifestFile = folder.resolve(MANIFEST);
        Path checksums = folder.resolve(CHECKSUMS);
        if (!Files.isRegularFile(manifestFile) || !Files.isRegularFile(checksums)) {
            return Optional.empty();
        }
        try {
            Manifest manifest = json.readValue(manifestFile.toFile(), Manifest.class);
            if (!version.equals(manifest.summaryVersion())) {
                return Optional.empty();
            }
            for (ManifestEntry file : manifest.files()) {
                Path path = folder.resolve(file.name());
                if (!Files.isRegularFile(path) || Files.size(path) != file.bytes()) {
                    return Optional.empty();
                }
            }
            List<ManifestEntry> all = new ArrayList<>(manifest.files());
            all.add(new ManifestEntry(MANIFEST, Files.size(manifestFile), Sha256.of(manifestFile)));
            all.add(new ManifestEntry(CHECKSUMS, Files.size(checksums), Sha256.of(checksums)));
            return Optional.of(all);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code sha256sum}'s lines: the digest, two spaces (text mode), the name. */
    private static byte[] checksums(List<ManifestEntry> files) {
        StringBuilder lines = new StringBuilder();
        files.forEach(file -> lines.append(file.sha256()).append("  ").append(file.name()).append('\n'));
        return lines.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Temporary files of an export that was killed: never under a final name, removed here. */
    private static void deleteLeftoverPartials(Path folder) throws IOException {
        try (var files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".partial")).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    private interface Body {
        void writeTo(java.io.OutputStream out) throws IOException;
    }

    private ManifestEntry write(Path target, Body body) throws IOException {
        try (AtomicReportFile file = new AtomicReportFile(target)) {
            body.writeTo(file.stream());
            return file.commit();
        }
    }

    private <T> ManifestEntry writeCsv(Path target, Class<T> type, Consumer<SequenceWriter> rows)
            throws IOException {
        return write(target, out -> {
            try (SequenceWriter writer = Rows.csv(type, out)) {
                rows.accept(writer);
            }
        });
    }
}
