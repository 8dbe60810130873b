package dev.nqueens.web;

import dev.nqueens.export.Sha256;
import dev.nqueens.export.ManifestEntry;
import dev.nqueens.export.ReportExporter;
import dev.nqueens.settings.NqueensProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The export folder as the downloads see it: only regular files directly inside it, under a plain
 * name (letters, digits, {@code . _ -}, not starting with a dot, so never a temporary
 * {@code .…partial}), each with its SHA-256 — computed once per version of the file and kept while
 * the file's identity, size and modification time stay (the export does not rewrite unchanged files).
 */
@Component
@Profile(Serve.PROFILE)
class ExportFolder {

    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    /** One version of an export file: what a download's headers describe. */
    record Version(Path path, Object identity, long bytes, long modifiedMillis, String sha256) {

        String etag() {
            return "\"" + sha256 + "\"";
        }
    }

    private final Path folder;
    private final Map<String, Version> digests = new ConcurrentHashMap<>();
    private final JsonMapper json = JsonMapper.builder().build();

    ExportFolder(NqueensProperties properties) {
        this.folder = Path.of(properties.outputDir()).toAbsolutePath().normalize();
    }

    /**
     * The current version of file {@code name}.
     *
     * @throws org.springframework.web.ErrorResponseException 400 for a name that is not a plain file
     *     name, 404 for one that is not in the folder
     */
    Version current(String name) throws IOException {
        if (name == null || !PLAIN_NAME.matcher(name).matches() || name.contains("..")) {
            throw Problems.badRequest("'" + name + "' is not the name of an export file: only the files of the"
                    + " export folder are served, by their plain names");
        }
        Path file = folder.resolve(name).normalize();
        if (!file.getParent().equals(folder) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw Problems.notFound("no export file is named '" + name + "'");
        }
        for (int attempt = 0; attempt < 10; attempt++) {
            Version seen = stat(file, null);
            Version known = digests.get(name);
            if (known != null && sameFile(known, seen)) {
                return known;
            }
            Version hashed = stat(file, Sha256.of(file));
            if (sameFile(hashed, seen)) {
                digests.put(name, hashed);
                return hashed;
            }
            // replaced while it was hashed: look again
        }
        throw new IOException(name + " keeps changing");
    }

    private static Version stat(Path file, String sha256) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
        return new Version(file, identity(attributes), attributes.size(), attributes.lastModifiedTime().toMillis(),
                sha256);
    }

    private static boolean sameFile(Version a, Version b) {
        return a.identity().equals(b.identity()) && a.bytes() == b.bytes() && a.modifiedMillis() == b.modifiedMillis();
    }

    /** Whether {@code path} still is exactly {@code version} (checked after opening it, against a rename). */
    static boolean unchanged(Version version) throws IOException {
        return Files.exists(version.path(), LinkOption.NOFOLLOW_LINKS) && sameFile(version, stat(version.path(), null));
    }

    /** The files the manifest lists, with the checksum list; empty before the first export. */
    List<ManifestEntry> listed() {
        Path manifest = folder.resolve(ReportExporter.MANIFEST);
        List<ManifestEntry> files = new ArrayList<>();
        try {
            if (!Files.isRegularFile(manifest)) {
                return files;
            }
            for (JsonNode entry : json.readTree(manifest.toFile()).path("files")) {
                files.add(new ManifestEntry(entry.path("name").asString(""), entry.path("bytes").asLong(),
                        entry.path("sha256").asString("")));
            }
            current(ReportExporter.MANIFEST);
            files.add(manifestEntry(ReportExporter.MANIFEST));
            if (Files.isRegularFile(folder.resolve(ReportExporter.CHECKSUMS))) {
                files.add(manifestEntry(ReportExporter.CHECKSUMS));
            }
        } catch (IOException | RuntimeException e) {
            // A manifest being replaced or damaged: the page lists what it could read.
        }
        return files;
    }

    private ManifestEntry manifestEntry(String name) throws IOException {
        Version version = current(name);
        return new ManifestEntry(name, version.bytes(), version.sha256());
    }

    private static Object identity(BasicFileAttributes attributes) {
        Object key = attributes.fileKey();
        return key == null ? attributes.creationTime() : key;
    }

}
