package dev.nqueens.cli;

import dev.nqueens.job.NightlyRun;
import dev.nqueens.web.Serve;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code serve}: the results over HTTP, and the nightly schedule in the same process. */
@Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = Version.class,
        header = "Serve the results on the web; run the nightly schedule too.",
        description = "Read-only over HTTP on 127.0.0.1: the report, board pictures, downloads, a JSON API and health,"
                + " until Ctrl-C; runs the nightly job on its schedule too (setting nqueens.schedule.enabled).",
        footerHeading = "%nExamples:%n",
        footer = {"  ./nqueens serve                  then open http://127.0.0.1:8080/",
            "  ./nqueens serve --port 9000"})
final class ServeCommand implements Callable<Integer> {

    /** The web server on the database read-only, the job for the schedule's runs, the reports. */
    static final Needs NEEDS = new Needs(Needs.Database.READ, true, true, false, true);

    @ParentCommand
    NqueensCommand nqueens;

    @Option(names = "--port", paramLabel = "PORT", description = "HTTP port (default: setting server.port, ${bundle:default.server.port}).")
    String port;

    @Override
    public Integer call() {
        Map<String, String> options = port == null ? Map.of() : Map.of("server.port",
                Integer.toString(Options.port("--port", port)));
        try (Session session = nqueens.launch().open(NEEDS, options)) {
            Serve serve = session.bean(Serve.class);
            session.onStop(() -> {
                serve.stop();
                if (session.bean(NightlyRun.class).stopRunning()) {
                    session.console().err().println("nqueens: stopping at the next chunk boundary; the next run resumes");
                }
            }, null);
            return serve.serveUntilStopped(session.console().out());
        }
    }
}
