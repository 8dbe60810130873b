package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.h2.DatabaseServer;
import dev.nqueens.h2.H2File;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code db-server}: the embedded H2 file served read-only to psql and GUI clients. */
@Command(name = "db-server", mixinStandardHelpOptions = true, versionProvider = Version.class,
        header = "Serve the H2 file read-only to psql and GUI clients.",
        description = "On 127.0.0.1, over the PostgreSQL protocol and H2's TCP protocol, until Ctrl-C. Meanwhile"
                + " sql, show, history and verify read through it, and a run refuses to start (exit 3).",
        footerHeading = "%nExample:%n",
        footer = {"  ./nqueens db-server",
            "  psql \"host=127.0.0.1 port=5435 dbname=nqueens user=reader password=reader\""})
final class DbServerCommand implements Callable<Integer> {

    /** The H2 file, to create the read-only login in; no context. */
    static final Needs NEEDS = new Needs(Needs.Database.WRITE, false, false, false, false);

    @ParentCommand
    NqueensCommand nqueens;

    @Option(names = "--pg-port", paramLabel = "PORT",
            description = "PostgreSQL protocol port (default: setting nqueens.db-server.pg-port, ${bundle:default.nqueens.db-server.pg-port}).")
    String pgPort;

    @Option(names = "--tcp-port", paramLabel = "PORT",
            description = "H2 TCP port (default: setting nqueens.db-server.tcp-port, ${bundle:default.nqueens.db-server.tcp-port}).")
    String tcpPort;

    @Override
    public Integer call() throws SQLException {
        Map<String, String> options = new LinkedHashMap<>();
        if (pgPort != null) {
            options.put("nqueens.db-server.pg-port", Integer.toString(Options.port("--pg-port", pgPort)));
        }
        if (tcpPort != null) {
            options.put("nqueens.db-server.tcp-port", Integer.toString(Options.port("--tcp-port", tcpPort)));
        }
        try (Session session = nqueens.launch().open(NEEDS, options,
                database -> DatabaseServer.embeddedFile(database.url()))) {
            H2File file = session.database().h2File().orElseThrow();
            session.closeConnection();
            DatabaseServer server = new DatabaseServer(file, session.database().username(),
                    session.database().password(), session.settings().dbServer());
            session.onStop(server::stop, null);
            server.serve(session.console().out());
            return ExitCode.OK;
        }
    }
}
