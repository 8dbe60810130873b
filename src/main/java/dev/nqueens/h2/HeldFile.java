package dev.nqueens.h2;

import dev.nqueens.failure.Failure;
import dev.nqueens.settings.NqueensProperties;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.h2.tools.Server;

/**
 * A process's hold on the embedded H2 file ({@code run}, {@code schedule}, {@code serve},
 * {@code db-server}): the file stays open in this process, which serves it to the others through
 * H2's own TCP server, on 127.0.0.1 alone (H2's {@code h2.bindAddress}, set when the JVM starts),
 * a free port unless one is asked for, never creating a database ({@code -ifExists}); a
 * {@link HolderMarker} says where. The reading commands log in there with the read-only login
 * ({@link #grantReadOnlyLogin}), {@code backup} with the owner's ({@link OwnerPassword}), and a
 * reader never becomes the holder: it has no file to take over. Let go, the file is compacted
 * if that is worthwhile ({@link H2Compaction}).
 */
public final class HeldFile {

    /** The system property H2 reads once, when it loads, for the address its servers listen on. */
    public static final String BIND_ADDRESS = "h2.bindAddress";

    private final H2File file;
    private final String user;
    private final String password;
    private final Connection open;
    private final Server server;
    private final HolderMarker marker;
    private final long sizeWhenHeld;

    private HeldFile(H2File file, String user, String password, Connection open, Server server, HolderMarker marker,
            long sizeWhenHeld) {
        this.file = file;
        this.user = user;
        this.password = password;
        this.open = open;
        this.server = server;
        this.marker = marker;
        this.sizeWhenHeld = sizeWhenHeld;
    }

    /**
     * Holds the file in this process and serves it, marked as held by {@code command}: opens it
     * with the owner's login, creates the read-only login ({@link #grantReadOnlyLogin}), and keeps
     * a connection open until {@link #release}: that one, or, {@code readOnly} ({@code db-server}),
     * one that opens the file read-only, which every session of the server then shares.
     *
     * @param user the owner's login, and {@code password} its password
     * @param reader the read-only login
     * @param port the TCP port; 0 for a free one
     * @param describing what the marker says of the holder besides its port
     * @throws SQLException if the file cannot be opened or the server cannot start (the port is taken)
     */
    public static HeldFile hold(H2File file, String user, String password, NqueensProperties.DbServer reader,
            boolean readOnly, String command, int port, Map<String, String> describing) throws SQLException {
        long size = size(file);
        Connection open = DriverManager.getConnection(file.url() + ";IFEXISTS=TRUE", user, password);
        try {
            grantReadOnlyLogin(open, reader);
            if (readOnly) {
                open.close();
                open = DriverManager.getConnection(file.readOnlyUrl(), user, password);
            }
            Server server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-baseDir",
                    file.path().getParent().toString(), "-ifExists").start();
            return new HeldFile(file, user, password, open, server,
                    HolderMarker.write(file, command, server.getPort(), describing), size);
        } catch (SQLException | RuntimeException e) {
            open.close();
            throw e;
        }
    }

    /**
     * Creates the read-only login (or resets its password), with SELECT on every table and view of
     * the schema, those made later included: readers through a holder's server can only read.
     */
    private static void grantReadOnlyLogin(Connection owner, NqueensProperties.DbServer reader) throws SQLException {
        String quoted = "'" + reader.password().replace("'", "''") + "'";
        try (Statement statement = owner.createStatement()) {
            statement.execute("CREATE USER IF NOT EXISTS " + reader.user() + " PASSWORD " + quoted);
            statement.execute("ALTER USER " + reader.user() + " SET PASSWORD " + quoted);
            statement.execute("GRANT SELECT ON SCHEMA public TO " + reader.user());
        }
    }

    /** Stops serving: the sessions of readers through it end. */
    public void stopServing() {
        server.stop();
    }

    /**
     * Lets the file go, once this process's other connections are closed: compacts it if it grew
     * enough to be worth it (saying so on {@code out}; not when {@code out} is null) and removes the
     * marker. A compaction that fails leaves the file as it was, with one line saying so.
     */
    public void release(PrintStream out) {
        server.stop();
        try {
            open.close();
        } catch (SQLException e) {
            // closed with the database
        }
        try {
            if (out != null) {
                compactIfWorthwhile(out);
            }
        } finally {
            marker.delete();
        }
    }

    private void compactIfWorthwhile(PrintStream out) {
        try {
            new H2Compaction(file, user, password).compactIfWorthwhile(sizeWhenHeld).ifPresent(result -> out.printf(
                    "  compacted %s: %s%n", file.dataFile().getFileName(), result.describe()));
        } catch (RuntimeException e) {
            out.printf("nqueens: %s was not compacted: %s%n", file.dataFile().getFileName(), Failure.rootMessage(e));
        }
    }

    private static long size(H2File file) {
        try {
            return Files.exists(file.dataFile()) ? Files.size(file.dataFile()) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
