package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.h2.DatabaseServer;
import dev.nqueens.h2.H2File;
import dev.nqueens.settings.NqueensProperties;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code db-server}: the embedded H2 file served read-only to psql and GUI clients, until stopped. */
@Command(
        name = "db-server",
        header = "Serve the H2 file read-only to psql and GUI clients.",
        description = "On 127.0.0.1, over the PostgreSQL protocol and H2's TCP protocol, until Ctrl-C. Meanwhile"
                + " sql, show, history and verify read through it, and a run refuses to start (exit 3).",
        footerHeading = "%nExample:%n",
        footer = {
            "  ./nqueens db-server",
            "  psql \"host=127.0.0.1 port=5435 dbname=nqueens user=reader password=reader\""
        })
final class DbServerCommand extends Subcommand {

    /** The H2 file, to create the read-only login in; no context. */
    static final Needs NEEDS = Needs.of(Needs.Database.WRITE);

    @Option(
            names = "--pg-port",
            paramLabel = "PORT",
            converter = Options.Port.class,
            description =
                    "PostgreSQL protocol port (default: setting nqueens.db-server.pg-port, ${bundle:default.nqueens.db-server.pg-port}).")
    Integer pgPort;

    @Option(
            names = "--tcp-port",
            paramLabel = "PORT",
            converter = Options.Port.class,
            description =
                    "H2 TCP port (default: setting nqueens.db-server.tcp-port, ${bundle:default.nqueens.db-server.tcp-port}).")
    Integer tcpPort;

    @Override
    public Integer call() throws SQLException {
        Map<String, String> options = new LinkedHashMap<>();
        if (pgPort != null) {
            options.put("nqueens.db-server.pg-port", pgPort.toString());
        }
        if (tcpPort != null) {
            options.put("nqueens.db-server.tcp-port", tcpPort.toString());
        }
        try (Session session =
                nqueens.launch().open(NEEDS, options, (settings, database) -> embeddedFile(database.url()))) {
            H2File file = session.database().h2File().orElseThrow();
            NqueensProperties.DbServer settings = session.settings().dbServer();
            // Before anything is changed: another program on a port.
            requireFree(settings.pgPort(), "--pg-port");
            requireFree(settings.tcpPort(), "--tcp-port");
            session.closeConnection();
            CountDownLatch stop = new CountDownLatch(1);
            session.onStop(stop::countDown, null);
            ClientErrors.reportOnOneLine();
            try (DatabaseServer server = DatabaseServer.start(
                    file,
                    session.database().username(),
                    session.database().password(),
                    settings,
                    Session.holder(
                            "db-server",
                            ", serving it on 127.0.0.1" + " ports " + settings.pgPort() + " and " + settings.tcpPort(),
                            ": stop it first"),
                    session.settings().statementTimeout())) {
                printHowToConnect(file, settings, session.console().out());
                stop.await();
                session.console().out().println("db-server stopped.");
            } catch (DatabaseServer.PortInUseException e) {
                throw portInUse(e.port, e.port == settings.pgPort() ? "--pg-port" : "--tcp-port");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ExitCode.OK;
        }
    }

    /** The embedded file database {@code url} names; another kind of database is bad input. */
    private static H2File embeddedFile(String url) {
        return H2File.of(url)
                .orElseThrow(() -> new InvalidInputException("db-server serves the embedded H2"
                        + " database; the configured database "
                        + (url == null ? "" : url.replaceAll("[;?].*$", "") + " ")
                        + "is not one: connect your client to it directly"));
    }

    private static void printHowToConnect(H2File file, NqueensProperties.DbServer settings, PrintStream out) {
        out.printf(
                "Serving %s read-only on 127.0.0.1 (Ctrl-C to stop; until then a nightly run refuses to start, exit 3):%n",
                file.path());
        out.printf(
                "  psql:  psql \"host=127.0.0.1 port=%d dbname=%s user=%s password=%s\"%n",
                settings.pgPort(), file.databaseName(), settings.user(), settings.password());
        out.printf(
                "  JDBC:  jdbc:h2:tcp://127.0.0.1:%d/%s (H2's driver; user %s, password %s)%n",
                settings.tcpPort(), file.databaseName(), settings.user(), settings.password());
        out.flush();
    }

    private static void requireFree(int port, String option) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw portInUse(port, option);
        }
    }

    private static InvalidInputException portInUse(int port, String option) {
        return new InvalidInputException("port " + port + " on 127.0.0.1 is in use by another program; choose another"
                + " with " + option + " or nqueens.db-server." + option.substring(2));
    }
}
