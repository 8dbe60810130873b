package dev.nqueens.web;

import dev.nqueens.h2.HolderMarker;
import dev.nqueens.job.NightlyScheduler;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.h2.H2File;
import java.io.PrintStream;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The {@code serve} command once the web server listens: prints the address, then runs the nightly
 * schedule (unless {@code nqueens.schedule.enabled} is false) or just waits, until {@link #stop()}.
 * On an embedded H2 file it leaves a {@link HolderMarker} beside the file meanwhile, so that a
 * {@code run} refused by the file lock can say who holds it.
 */
@Component
@Profile(Serve.PROFILE)
public class Serve {

    /** The Spring profile of the {@code serve} command: the web beans and application-serve.yml. */
    public static final String PROFILE = "serve";

    private final NightlyScheduler scheduler;
    private final NqueensProperties properties;
    private final Environment environment;
    private final WebServerApplicationContext context;
    private final CountDownLatch stopped = new CountDownLatch(1);

    Serve(NightlyScheduler scheduler, NqueensProperties properties, Environment environment,
            WebServerApplicationContext context) {
        this.scheduler = scheduler;
        this.properties = properties;
        this.environment = environment;
        this.context = context;
    }

    /** Serves until stopped; returns the exit code. */
    public int serveUntilStopped(PrintStream out) {
        String address = "http://" + environment.getProperty("server.address", "127.0.0.1") + ":"
                + context.getWebServer().getPort() + "/";
        boolean scheduled = properties.schedule().enabled();
        String cron = properties.schedule().cron();
        Optional<HolderMarker> marker = H2File.of(environment.getProperty("spring.datasource.url"))
                .map(file -> HolderMarker.serve(file, address, scheduled ? Optional.of(cron) : Optional.empty()));
        try {
            out.printf("Serving %s read-only (Ctrl-C to stop)%n", address);
            if (scheduled) {
                scheduler.runForever(properties, out);
            } else {
                out.println("The nightly schedule is off (nqueens.schedule.enabled=false).");
                out.flush();
                stopped.await();
            }
            out.println("serve stopped.");
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } finally {
            marker.ifPresent(HolderMarker::delete);
        }
    }

    /** Ends {@link #serveUntilStopped}: at once while waiting, after the current run otherwise. */
    public void stop() {
        scheduler.stop();
        stopped.countDown();
    }
}
