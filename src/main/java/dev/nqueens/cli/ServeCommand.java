package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.h2.SwitchingH2DataSource;
import dev.nqueens.job.NightlyScheduler;
import dev.nqueens.web.Serve;
import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code serve}: the results over HTTP, and the nightly schedule. The web server starts alone, in a
 * small JVM with the quick compiler, so that the pages answer within seconds; each night the
 * schedule runs starts a JVM of its own for the job ({@link NightProcess}), and the pages read
 * through it while it holds an embedded H2 file.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = Version.class,
        header = "Serve the results on the web; run the nightly schedule too.",
        description = "Read-only over HTTP on 127.0.0.1: the report, board pictures, downloads, a JSON API and health,"
                + " until Ctrl-C; runs the nightly job on its schedule too (setting nqueens.schedule.enabled).",
        footerHeading = "%nExamples:%n",
        footer = {"  ./nqueens serve                  then open http://127.0.0.1:8080/",
            "  ./nqueens serve --port 9000"})
final class ServeCommand implements Callable<Integer> {

    /** The web server on the database read-only; the reports it serves. */
    static final Needs NEEDS = new Needs(Needs.Database.READ, false, true, false, true);
    /** One night of its schedule, in the night's JVM ({@link NightCommand}): the job, the database writable. */
    static final Needs NIGHT = new Needs(Needs.Database.MIGRATE, true, false, false, true);

    @ParentCommand
    NqueensCommand nqueens;

    @Option(names = "--port", paramLabel = "PORT",
            description = "HTTP port (default: setting server.port, ${bundle:default.server.port}).")
    String port;

    @Override
    public Integer call() throws Exception {
        Map<String, String> options = port == null ? Map.of() : Map.of("server.port",
                Integer.toString(Options.port("--port", port)));
        try (Session web = nqueens.launch().open(NEEDS, options)) {
            PrintStream out = web.console().out();
            NightProcess night = new NightProcess(web.console(), web.settings(),
                    Optional.ofNullable(web.beanOrElse(SwitchingH2DataSource.class, null)));
            CountDownLatch stopped = new CountDownLatch(1);
            NightlyScheduler scheduler = new NightlyScheduler(night::run);
            web.onStop(() -> {
                scheduler.stop();
                stopped.countDown();
                night.stop();
            }, null);
            try (AutoCloseable marker = web.bean(Serve.class).announce(out, web.console().err())) {
                if (web.settings().schedule().enabled()) {
                    scheduler.runForever(web.settings(), out);
                } else {
                    stopped.await();
                }
            }
            out.println("serve stopped.");
            return ExitCode.OK;
        }
    }
}
