package dev.nqueens.h2;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import org.h2.api.ErrorCode;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;

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

    /**
     * The login an embedded file is opened with: the configured one, or H2's customary {@code sa},
     * with which a file is created when none is configured.
     */
    public static String username(DataSourceProperties configured) {
        return Objects.requireNonNullElse(configured.getUsername(), "sa");
    }

    /**
     * The password of {@link #username}: the configured one; else the owner's password kept beside
     * the file ({@link OwnerPassword}); else none (a file no holder has opened since it was made).
     */
    public static String password(DataSourceProperties configured) {
        return configured.getPassword() != null
                ? configured.getPassword()
                : of(configured.getUrl()).flatMap(OwnerPassword::read).orElse("");
    }

    /** H2's "database may be already in use": another process holds the file. */
    public static boolean heldElsewhere(SQLException e) {
        return e.getErrorCode() == ErrorCode.DATABASE_ALREADY_OPEN_1
                || String.valueOf(e.getMessage()).contains("The file is locked");
    }

    /** H2 refused the login: no such user, or another password. */
    public static boolean wrongLogin(SQLException e) {
        return e.getErrorCode() == ErrorCode.WRONG_USER_OR_PASSWORD;
    }

    /** Where the owner's password is kept beside the file ({@link OwnerPassword}). */
    public Path passwordFile() {
        return OwnerPassword.of(this);
    }

    /** The file the database {@code IFEXISTS=TRUE} asked for is missing. */
    public static boolean missing(SQLException e) {
        return e.getErrorCode() == ErrorCode.DATABASE_NOT_FOUND_WITH_IF_EXISTS_1;
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

    /** The largest file H2 maps into memory ({@code nioMapped:}: one mapping, up to 2 GB). */
    static final long MAPPED_AT_MOST = Integer.MAX_VALUE;

    /**
     * The URL of a command that reads the file to answer one request, read-only: mapped into memory
     * when it fits one mapping (else H2 reads each page with a system call, hundreds of thousands for
     * one pass over a large size; docs/performance.md). No setting that needs admin rights (such as
     * {@code CACHE_SIZE}): the reading commands open it with a login that has none.
     */
    public String readOnceUrl() {
        long size = dataFile().toFile().length(); // 0 for a missing file, which IFEXISTS then refuses
        String location = size <= MAPPED_AT_MOST ? "jdbc:h2:nioMapped:" + path : "jdbc:h2:file:" + path;
        return location + settings + ";ACCESS_MODE_DATA=r";
    }
}
