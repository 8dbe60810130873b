package dev.nqueens.h2;

import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.h2.H2File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import javax.sql.DataSource;
import org.h2.tools.Server;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * {@code ./nqueens db-server}: serves the embedded H2 file to other programs, read-only, on
 * 127.0.0.1 — over the PostgreSQL wire protocol (psql, GUI clients, any PostgreSQL driver) and
 * over H2's own TCP protocol (H2's JDBC driver).
 *
 * <p>How it stays read-only and exclusive: it makes sure the read-only login exists (a user with
 * SELECT on the schema and a password, since psql cannot send an empty one), closes the
 * application's connection pool, and reopens the file with {@code ACCESS_MODE_DATA=r}: every
 * session of the servers, whatever its user, shares that read-only database. While it serves, the
 * file stays open in this process, so a nightly run refuses to start (exit 3) — and if a run holds
 * the file, the server refuses to start the same way. The servers only accept local clients and
 * bind to 127.0.0.1 ({@code h2.bindAddress}, set by the launcher before H2 loads).
 */
@Component
public class DatabaseServer {

    /** H2's "exception opening port" error. */
    private static final int H2_PORT_IN_USE = 90061;

    private final DataSource dataSource;
    private final Environment environment;
    private final NqueensProperties properties;
    private final CountDownLatch stop = new CountDownLatch(1);

    DatabaseServer(DataSource dataSource, Environment environment, NqueensProperties properties) {
        this.dataSource = dataSource;
        this.environment = environment;
        this.properties = properties;
    }

    /**
     * Serves until {@link #stop()} (SIGTERM, Ctrl-C). Prints how to connect.
     *
     * @throws IllegalArgumentException if the database is not an embedded H2 file or a port is taken
     * @throws SQLException if the file cannot be opened (another process holds it: a run)
     */
    public void serve(PrintStream out) throws SQLException {
        NqueensProperties.DbServer settings = properties.dbServer();
        H2File file = embeddedFile(environment.getProperty("spring.datasource.url"));
        requireFree(settings.pgPort(), "--pg-port", "nqueens.db-server.pg-port");
        requireFree(settings.tcpPort(), "--tcp-port", "nqueens.db-server.tcp-port");
        grantReadOnlyLogin(settings);
        closePool();
        try (Connection readOnly = DriverManager.getConnection(file.readOnlyUrl(),
                environment.getProperty("spring.datasource.username", "sa"),
                environment.getProperty("spring.datasource.password", ""))) {
            String folder = file.path().getParent().toString();
            ClientErrors.reportOnOneLine();
            Server pg = start(Server.createPgServer("-pgPort", String.valueOf(settings.pgPort()), "-baseDir", folder,
                    "-ifExists"), settings.pgPort(), "--pg-port");
            try {
                Server tcp = start(Server.createTcpServer("-tcpPort", String.valueOf(settings.tcpPort()), "-baseDir",
                        folder, "-ifExists"), settings.tcpPort(), "--tcp-port");
                try {
                    printHowToConnect(out, file, settings);
                    stop.await();
                    out.println("db-server stopped.");
                } finally {
                    tcp.stop();
                }
            } finally {
                pg.stop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The embedded file database {@code url} names.
     *
     * @throws IllegalArgumentException if it names another kind of database
     */
    public static H2File embeddedFile(String url) {
        return H2File.of(url).orElseThrow(() -> new IllegalArgumentException("db-server serves the embedded H2"
                + " database; the configured database " + (url == null ? "" : url.replaceAll("[;?].*$", "") + " ")
                + "is not one: connect your client to it directly"));
    }

    /** Ends {@link #serve}; safe to call when not serving. */
    public void stop() {
        stop.countDown();
    }

    private static void printHowToConnect(PrintStream out, H2File file, NqueensProperties.DbServer settings) {
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

    private static IllegalArgumentException portInUse(int port, String option, String key) {
        return new IllegalArgumentException("port " + port + " on 127.0.0.1 is in use by another program; choose another with "
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

    /** Creates the login (or resets its password) with SELECT on every table and view of the schema. */
    private void grantReadOnlyLogin(NqueensProperties.DbServer settings) throws SQLException {
        String password = "'" + settings.password().replace("'", "''") + "'";
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE USER IF NOT EXISTS " + settings.user() + " PASSWORD " + password);
            statement.execute("ALTER USER " + settings.user() + " SET PASSWORD " + password);
            statement.execute("GRANT SELECT ON SCHEMA public TO " + settings.user());
        }
    }

    /** Closes the pool so that the last connection goes and H2 closes the file, to reopen it read-only. */
    private void closePool() {
        if (dataSource instanceof AutoCloseable pool) {
            try {
                pool.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot close the connection pool: " + e.getMessage(), e);
            }
        }
    }
}
