package dev.nqueens.h2;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;

/**
 * The login the reading commands ({@code sql}, {@code show}, {@code history}, {@code verify}) use
 * on an embedded H2 file, held or not: no admin rights, so H2's file and script functions
 * ({@code FILE_READ}, {@code FILE_WRITE}, {@code CSVREAD}, {@code LINK_SCHEMA}, {@code RUNSCRIPT},
 * {@code CREATE ALIAS}) are refused whatever a statement says, and {@code SELECT} on the schema.
 * Its password is derived from the owner's, so only the account that can read the owner's password
 * can use it, and no other reader can change it (H2 lets a user change its own password). Every
 * holder of the file creates it and sets its password ({@link HeldFile#hold}).
 */
public final class ReadingLogin {

    /** The login's name. */
    public static final String USER = "nqueens_reading";

    private ReadingLogin() {}

    /** The login's password for a file whose owner's password is {@code ownerPassword}. */
    public static String password(String ownerPassword) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("nqueens reading login\n" + ownerPassword).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** Creates the login, or gives it its password again, with SELECT on the schema (tables made later included). */
    static void grant(Connection owner, String ownerPassword) throws SQLException {
        String quoted = "'" + password(ownerPassword) + "'";
        try (Statement statement = owner.createStatement()) {
            statement.execute("CREATE USER IF NOT EXISTS " + USER + " PASSWORD " + quoted);
            statement.execute("ALTER USER " + USER + " SET PASSWORD " + quoted);
            statement.execute("GRANT SELECT ON SCHEMA public TO " + USER);
        }
    }
}
