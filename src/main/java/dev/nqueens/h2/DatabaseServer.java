package dev.nqueens.h2;

import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.settings.NqueensProperties;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.h2.tools.Server;

/**
 * {@code ./nqueens db-server}: serves the embedded H2 file to other programs, read-only, on
 * 127.0.0.1 — over the PostgreSQL wire protocol (psql, GUI clients, any PostgreSQL driver) and
 * over H2's own TCP protocol (H2's JDBC driver, and nqueens' own reading commands meanwhile).
 *
 * <p>How it stays read-only and exclusive: it makes sure the read-only login exists (a user with
 * SELECT on the schema and a password, since psql cannot send an empty one), and reopens the file
 * with {@code ACCESS_MODE_DATA=r}: every session of the servers, whatever its user, shares that
 * read-only database. While it serves, the file stays open in this process and a
 * {@link HeldFile} serves it: a nightly run refuses to start (exit 3) naming it, {@code sql},
 * {@code show}, {@code history} and {@code verify} read through its TCP server, and {@code backup}
 * takes its backup there. The servers only
 * accept local clients and bind to 127.0.0.1 ({@value HeldFile#BIND_ADDRESS}, set before H2 loads).
 */
public final class DatabaseServer {

    /** H2's "exception opening port" error. */
    private static final int H2_PORT_IN_USE = 90061;

    private final H2File file;
    private final String user;
    private final String password;
    private final NqueensProperties.DbServer settings;
    private final CountDownLatch stop = new CountDownLatch(1);

    public DatabaseServer(H2File file, String user, String password, NqueensProperties.DbServer settings) {
        this.file = file;
        this.user = user;
        this.password = password;
        this.settings = settings;
    }

    /**
     * The embedded file database {@code url} names.
     *
     * @throws InvalidInputException if it names another kind of database
     */
    public static H2File embeddedFile(String url) {
        return H2File.of(url).orElseThrow(() -> new InvalidInputException("db-server serves the embedded H2"
                + " database; the configured database " + (url == null ? "" : url.replaceAll("[;?].*$", "") + " ")
                + "is not one: connect your client to it directly"));
    }

    /**
     * Serves until {@link #stop()} (SIGTERM, Ctrl-C). Prints how to connect.
     *
     * @throws InvalidInputException if a port is taken
     * @throws SQLException if the file cannot be opened (another process holds it: a run)
     */
    public void serve(PrintStream out) throws SQLException {
        requireFree(settings.pgPort(), "--pg-port", "nqueens.db-server.pg-port");
        requireFree(settings.tcpPort(), "--tcp-port", "nqueens.db-server.tcp-port");
        HeldFile held;
        try {
            held = HeldFile.hold(file, user, password, settings, true, "db-server", settings.tcpPort(),
                    Map.of("pg-port", Integer.toString(settings.pgPort())));
        } catch (SQLException e) {
            if (e.getErrorCode() == H2_PORT_IN_USE) {
                throw portInUse(settings.tcpPort(), "--tcp-port", "nqueens.db-server.tcp-port");
            }
            throw e;
        }
        try {
            ClientErrors.reportOnOneLine();
            Server pg = start(Server.createPgServer("-pgPort", String.valueOf(settings.pgPort()), "-baseDir",
                    file.path().getParent().toString(), "-ifExists"), settings.pgPort(), "--pg-port");
            try {
                printHowToConnect(out);
                stop.await();
                out.println("db-server stopped.");
            } finally {
                pg.stop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            held.release(null);
        }
    }

    /** Ends {@link #serve}; safe to call when not serving. */
    public void stop() {
        stop.countDown();
    }

    private void printHowToConnect(PrintStream out) {
        out.printf("Serving %s read-only on 127.0.0.1 (Ctrl-C to stop; until then a nightly run refuses to start, exit 3):%n",
                file.path());
        out.printf("  psql:  psql \"host=127.0.0.1 port=%d dbname=%s user=%s password=%s\"%n", settings.pgPort(),
                file.databaseName(), settings.user(), settings.password());
        out.printf("  JDBC:  jdbc:h2:tcp://127.0.0.1:%d/%s (H2's driver; user %s, password %s)%n", settings.tcpPort(),
                file.databaseName(), settings.user(), settings.password());
        out.flush();
    }

    /** Fails early, before anything is changed, when another program listens on the port. */
    private static void requireFree(int port, String option, String key) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw portInUse(port, option, key);
        }
    }

    private static InvalidInputException portInUse(int port, String option, String key) {
        return new InvalidInputException("port " + port + " on 127.0.0.1 is in use by another program; choose another with "
                + option + " or " + key);
    }

    private static Server start(Server server, int port, String option) throws SQLException {
        try {
            return server.start();
        } catch (SQLException e) {
            if (e.getErrorCode() == H2_PORT_IN_USE) {
                throw portInUse(port, option, "nqueens.db-server" + option.substring(1));
            }
            throw e;
        }
    }
}
