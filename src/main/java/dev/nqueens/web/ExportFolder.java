package dev.nqueens.web;

import dev.nqueens.export.ManifestEntry;
import dev.nqueens.export.ReportExporter;
import dev.nqueens.export.Sha256;
import dev.nqueens.settings.NqueensProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The export folder as the downloads see it: only the files its {@code manifest.json} lists, and the
 * manifest and {@code SHA256SUMS} themselves — a file of the folder the manifest does not list (a
 * report of a size no longer stored, before the export removes it; anything else put there) is
 * not served — each a regular file directly inside the folder, under a plain name (letters, digits,
 * {@code . _ -}, not starting with a dot, so never a temporary {@code .…partial}), with its SHA-256,
 * computed once per version of the file and kept while the file's identity, size and modification
 * time stay (the export does not rewrite unchanged files). The manifest is read once per version.
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

    /** The manifest's entries as read from one version of it. */
    private record Manifest(Version version, List<ManifestEntry> files) {}

    private final Path folder;
    private final Map<String, Version> digests = new ConcurrentHashMap<>();
    private final JsonMapper json = JsonMapper.builder().build();
    private volatile Manifest manifest = new Manifest(null, List.of());

    @Autowired
    ExportFolder(NqueensProperties properties) {
        this(Path.of(properties.outputDir()));
    }

    ExportFolder(Path folder) {
        this.folder = folder.toAbsolutePath().normalize();
    }

    /**
     * The current version of file {@code name}.
     *
     * @throws org.springframework.web.ErrorResponseException 400 for a name that is not a plain file
     *     name, 404 for one that is not in the folder or that the manifest does not list
     */
    Version current(String name) throws IOException {
        if (name == null || !PLAIN_NAME.matcher(name).matches() || name.contains("..")) {
            throw Problems.badRequest("'" + name + "' is not the name of an export file: only the files of the"
                    + " export folder are served, by their plain names");
        }
        Path file = folder.resolve(name).normalize();
        if (!file.getParent().equals(folder)
                || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                || !isListed(name)) {
            throw Problems.notFound("no export file is named '" + name + "'");
        }
        try {
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
        } catch (NoSuchFileException e) {
            // removed by an export meanwhile: as if never there
            throw Problems.notFound("no export file is named '" + name + "'");
        }
        throw new IOException(name + " keeps changing");
    }

    private static Version stat(Path file, String sha256) throws IOException {
        BasicFileAttributes attributes =
                Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return new Version(
                file,
                identity(attributes),
                attributes.size(),
                attributes.lastModifiedTime().toMillis(),
                sha256);
    }

    private static boolean sameFile(Version a, Version b) {
        return a.identity().equals(b.identity()) && a.bytes() == b.bytes() && a.modifiedMillis() == b.modifiedMillis();
    }

    /** Whether {@code path} still is exactly {@code version} (checked after opening it, against a rename). */
    static boolean unchanged(Version version) throws IOException {
        return Files.exists(version.path(), LinkOption.NOFOLLOW_LINKS) && sameFile(version, stat(version.path(), null));
    }

    /** The files the manifest lists, with the manifest and the checksum list; empty before the first export. */
    List<ManifestEntry> listed() {
        List<ManifestEntry> files = new ArrayList<>();
        try {
            if (!Files.isRegularFile(folder.resolve(ReportExporter.MANIFEST))) {
                return files;
            }
            files.addAll(manifest().files());
            files.add(manifestEntry(ReportExporter.MANIFEST));
            if (Files.isRegularFile(folder.resolve(ReportExporter.CHECKSUMS))) {
                files.add(manifestEntry(ReportExporter.CHECKSUMS));
            }
        } catch (IOException | RuntimeException e) {
            // A manifest being replaced or damaged: the page lists what it could read.
        }
        return files;
    }

    /** Whether {@code name} is the manifest, the checksum list or a file the manifest lists. */
    private boolean isListed(String name) throws IOException {
        return name.equals(ReportExporter.MANIFEST)
                || name.equals(ReportExporter.CHECKSUMS)
                || manifest().files().stream().anyMatch(file -> file.name().equals(name));
    }

    /**
     * The manifest's entries, read again only when the manifest is another file than when last read
     * (the export renames a new one into place); none while it is missing or cannot be read.
     */
    private Manifest manifest() throws IOException {
        Path file = folder.resolve(ReportExporter.MANIFEST);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return new Manifest(null, List.of());
        }
        Version seen = stat(file, null);
        Manifest known = manifest;
        if (known.version() != null && sameFile(known.version(), seen)) {
            return known;
        }
        List<ManifestEntry> files = new ArrayList<>();
        try {
            for (JsonNode entry : json.readTree(file.toFile()).path("files")) {
                files.add(new ManifestEntry(
                        entry.path("name").asString(""),
                        entry.path("bytes").asLong(),
                        entry.path("sha256").asString("")));
            }
        } catch (RuntimeException e) {
            files.clear(); // damaged: nothing it names is served until an export writes it again
        }
        Manifest read = new Manifest(seen, List.copyOf(files));
        manifest = read;
        return read;
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
