package dev.nqueens.cli;

import dev.nqueens.failure.ExitCode;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.job.NightlyScheduler;
import dev.nqueens.job.NightlyStarts;
import dev.nqueens.web.Serve;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code serve}: the results over HTTP, and the nightly schedule, in one JVM: the web server on its
 * threads, each night of the schedule launched by Spring Batch on the scheduler's thread, as
 * {@code schedule} runs them. On an embedded H2 file it holds the file all along
 * and serves it to the other commands ({@link Session#hold}).
 */
@Command(
        name = "serve",
        header = "Serve the results on the web; run the nightly schedule too.",
        description = "Read-only over HTTP on 127.0.0.1: the report, board pictures, downloads, a JSON API and health,"
                + " until Ctrl-C; runs the nightly job on its schedule too (setting nqueens.schedule.enabled).",
        footerHeading = "%nExamples:%n",
        footer = {"  ./nqueens serve                  then open http://127.0.0.1:8080/", "  ./nqueens serve --port 9000"
        })
final class ServeCommand extends Subcommand {

    /** The web server and the job, on a migrated database, writing the reports. */
    static final Needs NEEDS = Needs.of(Needs.Database.MIGRATE, Needs.Part.JOB, Needs.Part.WEB, Needs.Part.EXPORTS);

    @Option(
            names = "--port",
            paramLabel = "PORT",
            converter = Options.Port.class,
            description = "HTTP port (default: setting server.port, ${bundle:default.server.port}).")
    Integer port;

    @Override
    public Integer call() throws Exception {
        Map<String, String> options = port == null ? Map.of() : Map.of("server.port", port.toString());
        try (Session web = nqueens.launch().open(NEEDS, options)) {
            PrintStream out = web.console().out();
            // Made when the first night starts (the context initializes lazily: the first page comes sooner).
            Supplier<NightlyRun> nightlyRun = () -> web.bean(NightlyRun.class);
            AtomicBoolean nights = new AtomicBoolean();
            NightlyScheduler scheduler = new NightlyScheduler(
                    request -> {
                        nights.set(true);
                        return nightlyRun.get().run(request);
                    },
                    web.bean(NightlyStarts.class));
            CountDownLatch stopped = new CountDownLatch(1);
            web.onStop(
                    () -> {
                        scheduler.stop();
                        stopped.countDown();
                        if (nights.get()) {
                            web.stopTheNight(nightlyRun.get());
                        }
                    },
                    null);
            Serve serve = web.bean(Serve.class);
            web.hold(
                    "serve",
                    ", " + serve.address(),
                    web.settings().schedule().enabled()
                            ? Session.runningTheNights(web.settings().schedule().cron())
                            : ", whose nightly schedule is off (nqueens.schedule.enabled=false): stop it for a run from the"
                                    + " shell, or turn its schedule on");
            serve.announce(out);
            if (web.settings().schedule().enabled()) {
                scheduler.runForever(web.settings(), out);
            } else {
                stopped.await();
            }
            out.println("serve stopped.");
            return ExitCode.OK;
        }
    }
}
