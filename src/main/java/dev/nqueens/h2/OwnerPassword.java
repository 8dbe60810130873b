package dev.nqueens.h2;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import org.h2.api.ErrorCode;

/**
 * The owner's password of an embedded H2 file, when none is configured: generated the first time
 * a holder ({@code run}, {@code schedule}, {@code serve}, {@code db-server}) opens the file, and
 * kept beside it in {@code data/nqueens.password}, readable and writable by its owner alone. Every
 * holder serves the file over TCP on 127.0.0.1 ({@link HeldFile}), which any local account can
 * reach: with this password only the file's owner can log in as its owner; the others get the
 * read-only login at most. A file made without a password (by an older build, or restored from its
 * backup) gets this one when a holder next opens it.
 */
public final class OwnerPassword {

    private OwnerPassword() {
    }

    static Path of(H2File file) {
        return Path.of(file.path() + ".password");
    }

    /** The password kept beside {@code file}, if there is one. */
    public static Optional<String> read(H2File file) {
        try {
            return Optional.of(Files.readString(of(file)).strip());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + of(file) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Gives the file a generated owner password if it has none kept beside it: written first under
     * a temporary name (reused if a holder was killed in between), set on an existing file, then
     * renamed into place; a file yet to be made is made with it.
     *
     * @throws SQLException if the file cannot be opened (held by another process, another password)
     */
    public static void ensure(H2File file, String user) throws SQLException {
        if (Files.exists(of(file))) {
            return;
        }
        Path partial = Path.of(of(file) + ".partial");
        try {
            String password = Files.exists(partial) ? Files.readString(partial).strip() : generated();
            writeOwnerOnly(partial, password);
            if (Files.exists(file.dataFile())) {
                adopt(file, user, password, "");
            }
            Files.move(partial, of(file), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the owner's password beside " + file.dataFile() + ": "
                    + e.getMessage(), e);
        }
    }

    /** Keeps {@code password} beside {@code file} (a restored backup's, where none was kept). */
    static void keep(H2File file, String password) throws IOException {
        Path partial = Path.of(of(file) + ".partial");
        writeOwnerOnly(partial, password);
        Files.move(partial, of(file), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Writes {@code password} to a new file readable and writable by its owner alone. */
    private static void writeOwnerOnly(Path target, String password) throws IOException {
        Files.createDirectories(target.getParent());
        Files.deleteIfExists(target);
        try (FileChannel channel = FileChannel.open(target, Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions
                        .fromString("rw-------")))) {
            channel.write(StandardCharsets.US_ASCII.encode(password + "\n"));
            channel.force(true);
        }
    }

    /**
     * Sets {@code password} on the file, which may take one of {@code former} instead (made without
     * a password, by an older build, or restored from another folder's backup); set again on a file
     * that takes it already.
     */
    static void adopt(H2File file, String user, String password, String... former) throws SQLException {
        String url = file.url() + ";IFEXISTS=TRUE";
        try (Connection connection = connect(url, user, password, former);
                Statement statement = connection.createStatement()) {
            statement.execute("ALTER USER " + user + " SET PASSWORD '" + password.replace("'", "''") + "'");
        }
    }

    /** A connection with the first of {@code password} and then {@code others} the file takes. */
    static Connection connect(String url, String user, String password, String... others) throws SQLException {
        try {
            return DriverManager.getConnection(url, user, password);
        } catch (SQLException e) {
            if (e.getErrorCode() != ErrorCode.WRONG_USER_OR_PASSWORD) {
                throw e;
            }
            for (String other : others) {
                if (!other.equals(password)) {
                    try {
                        return DriverManager.getConnection(url, user, other);
                    } catch (SQLException again) {
                        if (again.getErrorCode() != ErrorCode.WRONG_USER_OR_PASSWORD) {
                            throw again;
                        }
                    }
                }
            }
            throw e;
        }
    }

    private static String generated() {
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
