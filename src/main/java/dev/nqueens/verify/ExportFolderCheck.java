package dev.nqueens.verify;

import dev.nqueens.export.ManifestEntry;
import dev.nqueens.export.ReportExporter;
import dev.nqueens.export.Sha256;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.BoardSummary;
import dev.nqueens.verify.VerificationReport.Check;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Verifies an export folder against its {@code manifest.json} and the stored sizes. Checks, in
 * order: {@code export manifest} (present, readable, no temporary name listed); {@code export
 * summary} (summary.json and summary.csv); {@code export n=8} per size stored ALL or FUNDAMENTAL
 * (its files listed); {@code export other files} when the manifest lists files of no stored size;
 * {@code export unlisted files}; and {@code export temporary files}. A listed file must exist with
 * the listed byte size and SHA-256. Without a readable manifest only the manifest and
 * temporary-files checks are made.
 *
 * <p>The folder mirrors the database: a regular, non-hidden file the manifest does not list (the
 * manifest and {@code SHA256SUMS} aside) fails {@code export unlisted files}, whatever its name —
 * a report of a size no longer stored (the next export removes it) or a file put there by hand
 * (the export leaves it). Hidden files ({@code .gitkeep}) are not exports and are ignored.
 *
 * <p>A leftover hidden temporary file ({@code .solutions-n08.json.partial}) fails its check at
 * warning level: its detail starts with {@code warning:}. The exported files are intact (the
 * other checks say so), but an export was interrupted and the operator should know; the file is
 * safe to delete.
 */
final class ExportFolderCheck {

    static final String MANIFEST = "manifest.json";
    private static final String PARTIAL = ".partial";

    private final Path folder;
    private final JsonMapper json = JsonMapper.builder().build();

    ExportFolderCheck(Path folder) {
        this.folder = folder;
    }

    List<Check> verify(List<BoardSummary> summaries) {
        List<Check> checks = new ArrayList<>();
        Map<String, ManifestEntry> listed = new LinkedHashMap<>();
        Check manifest = readManifest(listed);
        checks.add(manifest);
        if (manifest.passed()) {
            Set<String> names = Set.copyOf(listed.keySet());
            checks.add(filesCheck("export summary", List.of("summary.json", "summary.csv"), listed));
            for (BoardSummary summary : summaries) {
                List<String> expected = expectedFiles(summary);
                if (!expected.isEmpty()) {
                    checks.add(filesCheck("export n=" + summary.n(), expected, listed));
                }
            }
            if (!listed.isEmpty()) {
                checks.add(filesCheck("export other files", List.copyOf(listed.keySet()), listed));
            }
            checks.add(unlistedFiles(names));
        }
        checks.add(temporaryFiles());
        return checks;
    }

    /** Fills {@code listed} with the manifest's entries by name; the check says whether that worked. */
    private Check readManifest(Map<String, ManifestEntry> listed) {
        String name = "export manifest";
        Path file = folder.resolve(MANIFEST);
        if (!Files.isRegularFile(file)) {
            return Check.failed(name, MANIFEST + " is missing from " + folder);
        }
        JsonNode files;
        try {
            files = json.readTree(file.toFile()).path("files");
        } catch (JacksonException e) {
            return Check.failed(name, MANIFEST + " cannot be read: " + e.getOriginalMessage());
        }
        if (!files.isArray()) {
            return Check.failed(name, MANIFEST + " has no list of files");
        }
        for (JsonNode entry : files) {
            String fileName = entry.path("name").asString("");
            String sha256 = entry.path("sha256").asString("");
            if (fileName.isEmpty() || !entry.path("bytes").canConvertToLong() || sha256.isEmpty()) {
                return Check.failed(name, MANIFEST + " has an entry without name, bytes and sha256: " + entry);
            }
            if (fileName.endsWith(PARTIAL)) {
                return Check.failed(name, MANIFEST + " lists the temporary file " + fileName);
            }
            listed.put(fileName, new ManifestEntry(fileName, entry.path("bytes").asLong(), sha256));
        }
        return Check.ok(name, MANIFEST + " lists " + listed.size() + " files");
    }

    private static List<String> expectedFiles(BoardSummary summary) {
        List<String> names = new ArrayList<>();
        if (summary.stored() == StoredLevel.ALL) {
            names.add(ReportExporter.solutionsName(summary.n()) + ".json");
            names.add(ReportExporter.solutionsName(summary.n()) + ".csv");
        }
        if (summary.stored() != StoredLevel.COUNT) {
            names.add(ReportExporter.fundamentalName(summary.n()) + ".json");
            names.add(ReportExporter.fundamentalName(summary.n()) + ".csv");
        }
        return names;
    }

    /** Checks the named files and removes them from {@code listed}, leaving the files no check claimed. */
    private Check filesCheck(String name, List<String> names, Map<String, ManifestEntry> listed) {
        Findings findings = new Findings(name);
        for (String fileName : names) {
            ManifestEntry entry = listed.remove(fileName);
            if (entry == null) {
                findings.add(fileName + " is not listed in " + MANIFEST);
            } else {
                String problem = problemWith(entry);
                if (problem != null) {
                    findings.add(problem);
                }
            }
        }
        return findings.toCheck(
                names.size() == 1
                        ? names.get(0) + " matches the manifest"
                        : names.size() + " files match the manifest");
    }

    /** What is wrong with a listed file, or null when it has the listed size and SHA-256. */
    private String problemWith(ManifestEntry entry) {
        Path file = folder.resolve(entry.name());
        if (!Files.isRegularFile(file)) {
            return entry.name() + " is listed but missing";
        }
        try {
            long bytes = Files.size(file);
            if (bytes != entry.bytes()) {
                return entry.name() + ": " + bytes + " bytes, the manifest says " + entry.bytes();
            }
            if (!Sha256.of(file).equalsIgnoreCase(entry.sha256())) {
                return entry.name() + ": SHA-256 differs from the manifest";
            }
            return null;
        } catch (IOException e) {
            return entry.name() + " cannot be read: " + e.getMessage();
        }
    }

    /** The folder's regular, non-hidden files not in {@code listed}, the manifest and SHA256SUMS aside. */
    private Check unlistedFiles(Set<String> listed) {
        Findings findings = new Findings("export unlisted files");
        try (Stream<Path> files = Files.list(folder)) {
            files.filter(Files::isRegularFile)
                    .map(file -> file.getFileName().toString())
                    .filter(fileName -> !fileName.startsWith(".") && !fileName.endsWith(PARTIAL))
                    .filter(fileName -> !listed.contains(fileName)
                            && !fileName.equals(MANIFEST)
                            && !fileName.equals(ReportExporter.CHECKSUMS))
                    .sorted()
                    .forEach(fileName -> findings.add(fileName + " is not listed in " + MANIFEST
                            + (ReportExporter.isReportName(fileName)
                                    ? ": not what the database holds (the next export removes it)"
                                    : ": not an export (the export leaves it; move it out of " + folder + ")")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + folder + ": " + e.getMessage(), e);
        }
        return findings.toCheck("no files beside the listed ones");
    }

    private Check temporaryFiles() {
        String name = "export temporary files";
        Findings findings = new Findings(name);
        if (Files.isDirectory(folder)) {
            try (Stream<Path> files = Files.list(folder)) {
                files.map(file -> file.getFileName().toString())
                        .filter(fileName -> fileName.endsWith(PARTIAL))
                        .sorted()
                        .forEach(fileName -> findings.add(
                                "warning: " + fileName + " is left from an interrupted export (safe to delete)"));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + folder + ": " + e.getMessage(), e);
            }
        }
        return findings.toCheck("no temporary files");
    }
}
