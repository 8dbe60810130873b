package dev.nqueens.export;

import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.store.SolutionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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
 * size whose {@code board_summary} row did not change since the folder's last export keeps its files
 * without a read of its rows; a file whose bytes did not change is not rewritten (see
 * {@link AtomicReportFile}).
 *
 * <p>The folder mirrors the database: once the new manifest is in place, the files of the export's
 * own names that it does not list (a size no longer stored at that level, or at all) are deleted,
 * also when the reports were otherwise up to date. A crash in between leaves only files no
 * manifest lists, which the next export deletes. Files of other names are never touched: the
 * folder may hold other things.
 */
@Component
public class ReportExporter {

    /**
     * @param summaryVersion what the files were exported from: a digest of the {@code board_summary}
     *     rows and of this export's format, so an export of the same rows can be skipped
     * @param sizeVersions per size, the digest of its row and of the format: a size whose row did not
     *     change keeps its files as listed, without a read of its rows (absent in manifests of
     *     earlier builds)
     */
    private record Manifest(
            String generatedAt, String summaryVersion, List<ManifestEntry> files, Map<String, String> sizeVersions) {}

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

    /** The names of the reports an export writes beside the manifest and the checksum list. */
    private static final Pattern REPORT_NAME =
            Pattern.compile("(summary|(solutions|fundamental)-n[0-9]{2})\\.(json|csv)");

    /**
     * What an export left in its folder.
     *
     * @param files the files the manifest lists, then the manifest and the checksum list
     * @param removed the names of the files it deleted because the manifest no longer lists them, sorted
     */
    public record Exported(List<ManifestEntry> files, List<String> removed) {

        /** The run's line naming the reports removed from {@code folder}, if any were. */
        public Optional<String> removal(Path folder) {
            return removed.isEmpty()
                    ? Optional.empty()
                    : Optional.of(
                            "  removed from " + folder + " (not stored at that level): " + String.join(", ", removed));
        }
    }

    /**
     * Whether {@code name} is one an export writes its reports under ({@code summary.json},
     * {@code solutions-n08.csv}, …): the only files, with the manifest and the checksum list, that
     * belong in the folder, and the only ones an export deletes when its manifest does not list them.
     */
    public static boolean isReportName(String name) {
        return REPORT_NAME.matcher(name).matches();
    }

    /**
     * Exports every stored size into {@code folder} (created if missing), then deletes the reports
     * the manifest no longer lists.
     *
     * @throws ExportException if a file cannot be written or deleted; files already complete stay
     */
    public Exported exportAll(Path folder) {
        try {
            Files.createDirectories(folder);
            deleteLeftoverPartials(folder);
            List<BoardSummary> summaries = store.summaries();
            String version = summaryVersion(summaries);
            Optional<Manifest> previous = previousManifest(folder);
            Optional<List<ManifestEntry>> upToDate = previous.flatMap(manifest -> upToDate(folder, manifest, version));
            if (upToDate.isPresent()) {
                return new Exported(upToDate.get(), deleteUnlisted(folder, upToDate.get()));
            }
            List<ManifestEntry> files = new ArrayList<>();
            files.add(write(
                    folder.resolve("summary.json"),
                    out -> json.writerWithDefaultPrettyPrinter().writeValue(out, new SummaryReport(summaries))));
            files.add(writeCsv(
                    folder.resolve("summary.csv"),
                    BoardSummary.class,
                    writer -> summaries.forEach(row -> writer.write(row))));
            Map<String, String> sizeVersions = new TreeMap<>();
            for (BoardSummary summary : summaries) {
                String sizeVersion = sizeVersion(summary);
                sizeVersions.put(Integer.toString(summary.n()), sizeVersion);
                Optional<List<ManifestEntry>> kept =
                        previous.flatMap(manifest -> unchanged(folder, manifest, summary, sizeVersion));
                if (kept.isPresent()) {
                    files.addAll(kept.get());
                    continue;
                }
                if (summary.stored() == StoredLevel.ALL) {
                    files.addAll(SizeFiles.solutions(folder, summary, store));
                }
                if (summary.stored() != StoredLevel.COUNT) {
                    files.addAll(SizeFiles.classes(folder, summary, store));
                }
            }
            Manifest manifest = new Manifest(
                    OffsetDateTime.now(ZoneOffset.UTC)
                            .truncatedTo(ChronoUnit.SECONDS)
                            .toString(),
                    version,
                    files,
                    sizeVersions);
            List<ManifestEntry> all = new ArrayList<>(files);
            all.add(write(
                    folder.resolve(MANIFEST),
                    out -> json.writerWithDefaultPrettyPrinter().writeValue(out, manifest)));
            List<ManifestEntry> summed = List.copyOf(all);
            all.add(write(folder.resolve(CHECKSUMS), out -> out.write(checksums(summed))));
            return new Exported(all, deleteUnlisted(folder, all));
        } catch (IOException e) {
            throw new ExportException(folder, e);
        }
    }

    private record SummaryReport(List<BoardSummary> sizes) {}

    /** A digest of the published sizes' rows (counts, level, when and how fast computed) and of the format. */
    static String summaryVersion(List<BoardSummary> summaries) {
        StringBuilder text = new StringBuilder(FORMAT).append('\n');
        summaries.forEach(row -> text.append(row).append('\n'));
        return Sha256.hex(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A digest of one size's row and of the format: what that size's files were written from. */
    static String sizeVersion(BoardSummary summary) {
        return Sha256.hex((FORMAT + '\n' + summary).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The folder's manifest with its checksum list beside it (the last two files an export writes), if readable. */
    private Optional<Manifest> previousManifest(Path folder) {
        if (!Files.isRegularFile(folder.resolve(MANIFEST)) || !Files.isRegularFile(folder.resolve(CHECKSUMS))) {
            return Optional.empty();
        }
        try {
            return Optional.of(json.readValue(folder.resolve(MANIFEST).toFile(), Manifest.class));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether every file {@code files} lists is in {@code folder} with its listed size. */
    private static boolean present(Path folder, List<ManifestEntry> files) throws IOException {
        for (ManifestEntry file : files) {
            Path path = folder.resolve(file.name());
            if (!Files.isRegularFile(path) || Files.size(path) != file.bytes()) {
                return false;
            }
        }
        return true;
    }

    /**
     * A size's files as the previous manifest lists them, when they were written from the same row
     * in the same format and are all there with their sizes: then its rows are not read again (a
     * large size stored ALL would be read and hashed at every run that changes another size;
     * docs/performance.md).
     */
    private static Optional<List<ManifestEntry>> unchanged(
            Path folder, Manifest previous, BoardSummary summary, String sizeVersion) {
        if (previous.sizeVersions() == null
                || !sizeVersion.equals(previous.sizeVersions().get(Integer.toString(summary.n())))) {
            return Optional.empty();
        }
        List<String> names = new ArrayList<>();
        if (summary.stored() == StoredLevel.ALL) {
            names.add(solutionsName(summary.n()) + ".json");
            names.add(solutionsName(summary.n()) + ".csv");
        }
        if (summary.stored() != StoredLevel.COUNT) {
            names.add(fundamentalName(summary.n()) + ".json");
            names.add(fundamentalName(summary.n()) + ".csv");
        }
        List<ManifestEntry> kept = previous.files().stream()
                .filter(file -> names.contains(file.name()))
                .toList();
        try {
            return kept.size() == names.size() && present(folder, kept) ? Optional.of(kept) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The folder's manifest's files, when it holds an export of exactly these rows and every file it
     * lists is there with its size: then nothing is written, not even the manifest (one query and a
     * look at the files, instead of reading every stored row again).
     */
    private static Optional<List<ManifestEntry>> upToDate(Path folder, Manifest manifest, String version) {
        try {
            if (!version.equals(manifest.summaryVersion()) || !present(folder, manifest.files())) {
                return Optional.empty();
            }
            Path manifestFile = folder.resolve(MANIFEST);
            Path checksums = folder.resolve(CHECKSUMS);
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
        files.forEach(file ->
                lines.append(file.sha256()).append("  ").append(file.name()).append('\n'));
        return lines.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Temporary files of an export that was killed: never under a final name, removed here. */
    private static void deleteLeftoverPartials(Path folder) throws IOException {
        try (var files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".partial"))
                    .toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /**
     * Deletes the reports in {@code folder} that {@code listed} does not name; returns their names.
     * Runs after the manifest is in place, so a reader never finds a listed file missing.
     */
    private static List<String> deleteUnlisted(Path folder, List<ManifestEntry> listed) throws IOException {
        Set<String> names = listed.stream().map(ManifestEntry::name).collect(Collectors.toSet());
        List<Path> unlisted;
        try (var files = Files.list(folder)) {
            unlisted = files.filter(file -> isReportName(file.getFileName().toString()))
                    .filter(file -> !names.contains(file.getFileName().toString()))
                    .filter(file -> !Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS))
                    .sorted()
                    .toList();
        }
        List<String> removed = new ArrayList<>();
        for (Path file : unlisted) {
            if (Files.deleteIfExists(file)) {
                removed.add(file.getFileName().toString());
            }
        }
        return removed;
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

    private <T> ManifestEntry writeCsv(Path target, Class<T> type, Consumer<SequenceWriter> rows) throws IOException {
        return write(target, out -> {
            try (SequenceWriter writer = Rows.csv(type, out)) {
                rows.accept(writer);
            }
        });
    }
}
