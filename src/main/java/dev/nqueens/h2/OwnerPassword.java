package dev.nqueens.h2;

import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.failure.UnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
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

    private OwnerPassword() {}

    static Path of(H2File file) {
        return Path.of(file.path() + ".password");
    }

    /** The form of a generated password: 48 hexadecimal digits. */
    private static final Pattern GENERATED = Pattern.compile("[0-9a-f]{48}");

    /**
     * The password kept beside {@code file}, if there is one.
     *
     * @throws InvalidInputException if other accounts can read it (exit 2: it must be made private)
     * @throws UnavailableException if it cannot be read or holds no password (exit 4: the database cannot be opened)
     */
    public static Optional<String> read(H2File file) {
        Path kept = of(file);
        if (!Files.exists(kept, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(kept)) {
            throw unusable(kept, "is not a file");
        }
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(kept);
            if (permissions.stream().anyMatch(OTHERS::contains)) {
                throw new InvalidInputException(kept + " (the database owner's password) can be read by other accounts:"
                        + " make it private with `chmod 600 " + kept + "` (and consider the password seen)");
            }
        } catch (UnsupportedOperationException | IOException e) {
            // No POSIX permissions to check (or none readable): the read below reports an unreadable file.
        }
        String password;
        try {
            password = Files.readString(kept, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            throw unusable(kept, "cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (!GENERATED.matcher(password).matches()) {
            throw unusable(kept, "does not hold a password (48 hexadecimal digits)");
        }
        return Optional.of(password);
    }

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE);

    private static UnavailableException unusable(Path kept, String what) {
        return new UnavailableException(kept + ", the database owner's password, " + what + ": put back the file"
                + " the database came with (a backup holds it as owner.password; docs/h2.md)");
    }

    /**
     * Gives the file a generated owner password if it has none kept beside it: written first under
     * a temporary name (reused if a holder was killed in between), set on an existing file, then
     * renamed into place; a file yet to be made is made with it.
     *
     * @throws SQLException if the file cannot be opened (held by another process, another password)
     */
    public static void ensure(H2File file, String user) throws SQLException {
        Path partial = Path.of(of(file) + ".partial");
        try {
            if (Files.exists(of(file))) {
                return;
            }
            String password = Files.exists(partial)
                    ? Files.readString(partial).strip()
                    : String.format("%048x", new BigInteger(192, new SecureRandom()));
            writePartial(file, password);
            if (Files.exists(file.dataFile())) {
                adopt(file, user, password, "");
            }
            Files.move(partial, of(file), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot keep the owner's password beside " + file.dataFile() + ": " + e.getMessage(), e);
        }
    }

    /** Keeps {@code password} beside {@code file}: a new file, its owner's alone, renamed into place. */
    static void keep(H2File file, String password) throws IOException {
        Files.move(
                writePartial(file, password),
                of(file),
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }

    private static Path writePartial(H2File file, String password) throws IOException {
        Path partial = Path.of(of(file) + ".partial");
        Files.createDirectories(partial.getParent());
        Files.deleteIfExists(partial);
        Files.createFile(partial, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        return Files.writeString(
                partial, password + "\n", StandardCharsets.US_ASCII, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
    }

    /** Sets {@code password} on the file, which may take one of {@code former} (an older build's, a backup's). */
    static void adopt(H2File file, String user, String password, String... former) throws SQLException {
        try (Connection connection = connect(file.url() + ";IFEXISTS=TRUE", user, password, former);
                Statement statement = connection.createStatement()) {
            statement.execute("ALTER USER " + user + " SET PASSWORD '" + password.replace("'", "''") + "'");
        }
    }

    /** A connection with the first of {@code password} and then {@code others} the file takes. */
    static Connection connect(String url, String user, String password, String... others) throws SQLException {
        LinkedHashSet<String> passwords = new LinkedHashSet<>(List.of(others));
        passwords.remove(password);
        try {
            return DriverManager.getConnection(url, user, password);
        } catch (SQLException e) {
            for (String other : passwords) {
                if (e.getErrorCode() == ErrorCode.WRONG_USER_OR_PASSWORD) {
                    try {
                        return DriverManager.getConnection(url, user, other);
                    } catch (SQLException again) {
                        e = again;
                    }
                }
            }
            throw e;
        }
    }
}
