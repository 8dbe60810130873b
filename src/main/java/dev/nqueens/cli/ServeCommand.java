package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.job.NightlyScheduler;
import dev.nqueens.job.RunDatabase;
import dev.nqueens.job.RunRequest;
import dev.nqueens.web.Serve;
import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code serve}: the results over HTTP, and the nightly schedule in the same process. The web
 * server starts alone, so that the pages answer within seconds; the job's machinery is started for
 * each night the schedule runs, and closed after it.
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
    /** One night of its schedule: the job, with the database writable for as long as it runs. */
    static final Needs NIGHT = new Needs(Needs.Database.MIGRATE, true, false, false, true);

    @ParentCommand
    NqueensCommand nqueens;

    @Option(names = "--port", paramLabel = "PORT",
            description = "HTTP port (default: setting server.port, ${bundle:default.server.port}).")
    String port;

    private final AtomicReference<Session> night = new AtomicReference<>();

    @Override
    public Integer call() throws Exception {
        Map<String, String> options = port == null ? Map.of() : Map.of("server.port",
                Integer.toString(Options.port("--port", port)));
        Optional<Integer> handedOver = Handoff.forTheConfiguredSizes(nqueens.launch(), options, true);
        if (handedOver.isPresent()) {
            return handedOver.get();
        }
        try (Session web = nqueens.launch().open(NEEDS, options)) {
            Handoff.checkRemembered(web.console(), web.settings(), true);
            PrintStream out = web.console().out();
            RunDatabase database = web.beanOrElse(RunDatabase.class, RunDatabase.WRITABLE);
            CountDownLatch stopped = new CountDownLatch(1);
            NightlyScheduler scheduler = new NightlyScheduler(request -> database.writableDuring(() -> tonight(request)));
            web.onStop(() -> {
                scheduler.stop();
                stopped.countDown();
                Session running = night.get();
                if (running != null && running.bean(NightlyRun.class).stopRunning()) {
                    web.console().err().println("nqueens: stopping at the next chunk boundary; the next run resumes");
                }
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

    /** One night: the job's machinery started for it, and closed after it. */
    private NightlyRun.Outcome tonight(RunRequest request) {
        try (Session job = nqueens.launch().open(NIGHT, Map.of())) {
            night.set(job);
            return job.bean(NightlyRun.class).run(request);
        } finally {
            night.set(null);
        }
    }
}
