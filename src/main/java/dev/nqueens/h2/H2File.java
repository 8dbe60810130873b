package dev.nqueens.h2;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The embedded H2 database a JDBC URL names: the absolute path of its file without the
 * {@code .mv.db} extension, and the URL's settings ({@code ;MODE=…}, kept as written).
 */
public record H2File(Path path, String settings) {

    /** The embedded file database {@code url} names; empty for other databases and H2's mem:, tcp: and the like. */
    public static Optional<H2File> of(String url) {
        if (url == null || !url.startsWith("jdbc:h2:")) {
            return Optional.empty();
        }
        String rest = url.substring("jdbc:h2:".length());
        int semicolon = rest.indexOf(';');
        String location = semicolon < 0 ? rest : rest.substring(0, semicolon);
        String settings = semicolon < 0 ? "" : rest.substring(semicolon);
        if (location.startsWith("file:")) {
            location = location.substring("file:".length());
        } else if (location.matches("^[A-Za-z]{2,}:.*")) {
            return Optional.empty();
        }
        if (location.startsWith("~")) {
            location = System.getProperty("user.home") + location.substring(1);
        }
        return Optional.of(new H2File(Path.of(location).toAbsolutePath().normalize(), settings));
    }

    /** The file H2 keeps the database in. */
    public Path dataFile() {
        return Path.of(path + ".mv.db");
    }

    /** The name clients ask a server for: the file name, served from its folder. */
    public String databaseName() {
        return path.getFileName().toString();
    }

    /** The URL of this database with the same settings. */
    public String url() {
        return url(path);
    }

    /** The URL of another file database ({@code other} without extension) with the same settings. */
    public String url(Path other) {
        return "jdbc:h2:file:" + other + settings;
    }

    public String readOnlyUrl() {
        return url() + ";ACCESS_MODE_DATA=r";
    }
}
