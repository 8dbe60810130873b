package dev.nqueens.cli;

import dev.nqueens.web.Serve;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;

/**
 * Leaves out the auto-configurations a command cannot use, so that it starts sooner: the web
 * server, health, metrics and the other actuator parts outside {@code serve},
 * the RabbitMQ client unless {@code nqueens.cluster.enabled} is true (only the cluster's
 * beans use the broker), and Spring Batch and Flyway when the command needs no job. A context the command line starts lists them in
 * {@code spring.autoconfigure.exclude} ({@link #excluded}), so that Boot does not even look for the
 * libraries they need (which loads a class of each); as a filter (registered in
 * {@code META-INF/spring.factories}) it leaves them out of the tests' contexts too.
 */
public final class UnusedAutoConfigurations implements AutoConfigurationImportFilter, EnvironmentAware {

    private static final String[] SERVE_ONLY = {".actuate.", ".health.", ".micrometer.", ".metrics.",
        ".observation.", ".tracing.", ".tomcat.", ".servlet.", ".webmvc.", ".http.converter.", ".thymeleaf."};
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
            match[i] = candidates[i] == null || !unused(candidates[i], serves, cluster, job);
        }
        return match;
    }

    /** The auto-configurations a command with these needs has no use for, by class name. */
    static List<String> excluded(boolean serves, boolean cluster, boolean job) {
        return ImportCandidates.load(AutoConfiguration.class, UnusedAutoConfigurations.class.getClassLoader())
                .getCandidates().stream().filter(candidate -> unused(candidate, serves, cluster, job)).toList();
    }

    private static boolean unused(String candidate, boolean serves, boolean cluster, boolean job) {
        return (!serves && contains(candidate, SERVE_ONLY)) || (!cluster && contains(candidate, CLUSTER_ONLY))
                || (!job && contains(candidate, JOB_ONLY));
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
