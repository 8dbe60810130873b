package dev.nqueens.web;

import dev.nqueens.settings.NqueensProperties;
import java.io.PrintStream;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** The {@code serve} command's web server once it listens: its address, said on the console. */
@Component
@Profile(Serve.PROFILE)
public class Serve {

    /** The Spring profile of the {@code serve} command: the web beans and application-serve.yml. */
    public static final String PROFILE = "serve";

    private final NqueensProperties properties;
    private final Environment environment;
    private final WebServerApplicationContext context;

    Serve(NqueensProperties properties, Environment environment, WebServerApplicationContext context) {
        this.properties = properties;
        this.environment = environment;
        this.context = context;
    }

    /** Where it serves: {@code http://127.0.0.1:8080/}. */
    public String address() {
        return "http://" + environment.getProperty("server.address", "127.0.0.1") + ":"
                + context.getWebServer().getPort() + "/";
    }

    /** Says where it serves, and whether it runs the nightly schedule. */
    public void announce(PrintStream out) {
        out.printf("Serving %s read-only (Ctrl-C to stop)%n", address());
        if (!properties.schedule().enabled()) {
            out.println("The nightly schedule is off (nqueens.schedule.enabled=false).");
        }
        out.flush();
    }
}
