package dev.nqueens.cli;

import dev.nqueens.cluster.BrokerCheck;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.job.NightlyScheduler;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.h2.DatabaseServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SimpleCommandLinePropertySource;

/**
 * Checks the {@code nqueens.*} settings as soon as the configuration is read, before any bean,
 * connection or file exists, so bad settings change nothing. In cluster mode it also makes sure the
 * broker can be reached; for {@code run} it checks last that the output folder can be written.
 */
public final class SettingsCheck implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {

    private final boolean needsOutput;
    private final boolean needsSchedule;
    private final boolean needsServer;
    private final boolean needsCluster;

    /**
     * @param needsOutput the command exports (check the output folder)
     * @param needsSchedule the command schedules runs (check the cron expression)
     * @param needsServer the command serves the database (check the ports and the login)
     */
    public SettingsCheck(boolean needsOutput, boolean needsSchedule, boolean needsServer) {
        this(needsOutput, needsSchedule, needsServer, false);
    }

    /**
     * @param needsCluster the command always works in cluster mode ({@code worker}, {@code cluster}); {@code run}
     *     and {@code schedule} do when {@code nqueens.cluster.enabled} says so
     */
    public SettingsCheck(boolean needsOutput, boolean needsSchedule, boolean needsServer, boolean needsCluster) {
        this.needsOutput = needsOutput;
        this.needsSchedule = needsSchedule;
        this.needsServer = needsServer;
        this.needsCluster = needsCluster;
    }

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        rejectUnknownKeys(event.getEnvironment());
        NqueensProperties settings;
        try {
            settings = Binder.get(event.getEnvironment()).bindOrCreate("nqueens", NqueensProperties.class);
        } catch (BindException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new UsageException("invalid setting " + e.getProperty().getName() + "='"
                    + e.getProperty().getValue() + "': " + cause.getMessage());
        }
        check(settings);
        if (needsSchedule) {
            scheduleEnabled(event.getEnvironment());
        }
        boolean clusterMode = settings.cluster() != null && settings.cluster().enabled();
        if (needsCluster || clusterMode && (needsSchedule || needsOutput)) {
            checkCluster(settings.cluster(), event.getEnvironment());
            // Before anything is opened or written: an unreachable broker is exit 4, one line.
            BrokerCheck.check(event.getEnvironment());
        }
        if (needsServer) {
            try {
                DatabaseServer.embeddedFile(event.getEnvironment().getProperty("spring.datasource.url"));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (needsOutput) {
            // Last: the probe creates the folder, and bad settings must leave nothing behind.
            checkWritableFolder(Path.of(settings.outputDir()));
        }
    }

    /**
     * {@code nqueens.schedule.enabled}: whether {@code serve} runs the nightly schedule (default true).
     *
     * @throws UsageException unless it is true or false
     */
    public static boolean scheduleEnabled(org.springframework.core.env.Environment environment) {
        String value = environment.getProperty("nqueens.schedule.enabled", "true").trim();
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new UsageException("invalid setting nqueens.schedule.enabled='" + value + "': true or false");
        }
        return Boolean.parseBoolean(value);
    }

    /**
     * A misspelt key would silently leave its default in force: every {@code nqueens.*} key in a
     * configuration file or on the command line must be one of {@link NqueensProperties#KEYS}.
     */
    static void rejectUnknownKeys(ConfigurableEnvironment environment) {
        Set<String> known = NqueensProperties.KEYS.stream().map(SettingsCheck::normalized).collect(Collectors.toSet());
        for (PropertySource<?> source : environment.getPropertySources()) {
            boolean operatorSource = source instanceof OriginTrackedMapPropertySource
                    || source instanceof SimpleCommandLinePropertySource;
            if (!operatorSource || !(source instanceof EnumerablePropertySource<?> enumerable)) {
                continue;
            }
            for (String key : enumerable.getPropertyNames()) {
                if (normalized(key).startsWith("nqueens.") && !known.contains(normalized(key))) {
                    throw new UsageException("unknown setting '" + key + "' in " + describe(source)
                            + "; known settings: " + String.join(", ", new TreeSet<>(NqueensProperties.KEYS)));
                }
            }
        }
    }

    /** Relaxed binding accepts chunk-size, chunkSize and chunk_size alike. */
    private static String normalized(String key) {
        return key.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "").replaceAll("\\[\\d+]$", "");
    }

    private static String describe(PropertySource<?> source) {
        String name = source.getName();
        int start = name.indexOf('[');
        int end = name.lastIndexOf(']');
        return start >= 0 && end > start ? name.substring(start + 1, end) : name;
    }

    void check(NqueensProperties settings) {
        try {
            BoardSizes.parse(settings.sizes());
        } catch (IllegalArgumentException e) {
            throw new UsageException("setting nqueens.sizes: " + e.getMessage());
        }
        if (settings.threads() < 0) {
            throw new UsageException("invalid setting nqueens.threads=" + settings.threads()
                    + ": threads are >= 1, or 0 for one per core");
        }
        if (settings.chunkSize() < 1) {
            throw new UsageException("invalid setting nqueens.chunk-size=" + settings.chunkSize()
                    + ": a chunk holds at least 1 solution");
        }
        if (settings.storage() == null) {
            throw new UsageException("missing settings nqueens.storage.all-up-to and nqueens.storage.fundamental-up-to");
        }
        try {
            settings.storageLimits();
        } catch (IllegalArgumentException e) {
            throw new UsageException("setting nqueens.storage: " + e.getMessage());
        }
        if (needsSchedule) {
            if (settings.schedule() == null) {
                throw new UsageException("missing setting nqueens.schedule.cron");
            }
            try {
                NightlyScheduler.parse(settings.schedule() == null ? null : settings.schedule().cron());
            } catch (IllegalArgumentException e) {
                throw new UsageException("setting nqueens.schedule.cron: " + e.getMessage());
            }
        }
        if (settings.schedule() != null) {
            checkWindowAndZone(settings.schedule());
        }
        if (needsServer) {
            checkServer(settings.dbServer());
        }
    }

    /**
     * Cluster mode needs a database every machine shares (PostgreSQL, not the embedded H2 file)
     * and a broker login of the operator's choosing: RabbitMQ's guest login is not assumed.
     */
    private static void checkCluster(NqueensProperties.Cluster cluster, ConfigurableEnvironment environment) {
        String url = environment.getProperty("spring.datasource.url", "");
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new UsageException("cluster mode needs a shared PostgreSQL database, but spring.datasource.url is "
                    + url.replaceAll("[;?].*$", "") + " (workers on other machines cannot share it)");
        }
        if (!environment.containsProperty("spring.rabbitmq.username")
                || !environment.containsProperty("spring.rabbitmq.password")) {
            throw new UsageException("cluster mode needs the broker's login in spring.rabbitmq.username and"
                    + " spring.rabbitmq.password (SPRING_RABBITMQ_USERNAME, _PASSWORD); RabbitMQ's guest login is"
                    + " not assumed");
        }
        if (cluster.workerTimeout() == null || cluster.workerTimeout().toSeconds() < 4) {
            throw new UsageException("invalid setting nqueens.cluster.worker-timeout=" + cluster.workerTimeout()
                    + ": at least 4s");
        }
        if (cluster.queue() == null || cluster.queue().isBlank()) {
            throw new UsageException("setting nqueens.cluster.queue is empty: name the queue of partition requests");
        }
        if (!java.util.List.of("unpublished", "all").contains(cluster.crossCheck())) {
            throw new UsageException("invalid setting nqueens.cluster.cross-check='" + cluster.crossCheck()
                    + "': unpublished or all");
        }
    }

    private static void checkWindowAndZone(NqueensProperties.Schedule schedule) {
        if (schedule.window() != null && (schedule.window().isZero() || schedule.window().isNegative())) {
            throw new UsageException("invalid setting nqueens.schedule.window=" + schedule.window()
                    + ": the window must be longer than zero (or empty for none)");
        }
        try {
            schedule.zoneId();
        } catch (java.time.DateTimeException e) {
            throw new UsageException("invalid setting nqueens.schedule.zone='" + schedule.zone() + "': "
                    + e.getMessage() + " (a zone such as Europe/Berlin or UTC, or empty for the system's)");
        }
    }

    private static void checkServer(NqueensProperties.DbServer server) {
        if (server == null) {
            throw new UsageException("missing settings nqueens.db-server.*");
        }
        for (int port : new int[] {server.pgPort(), server.tcpPort()}) {
            if (port < 1 || port > 65535) {
                throw new UsageException("invalid port " + port + " in nqueens.db-server: a TCP port 1..65535");
            }
        }
        if (server.pgPort() == server.tcpPort()) {
            throw new UsageException("nqueens.db-server.pg-port and tcp-port are both " + server.pgPort()
                    + ": they need two ports");
        }
        if (server.user() == null || !server.user().matches("[A-Za-z][A-Za-z0-9_]{0,62}")
                || server.user().equalsIgnoreCase("sa")) {
            throw new UsageException("invalid setting nqueens.db-server.user='" + server.user()
                    + "': a name of letters, digits and _ (not sa, the owner)");
        }
        if (server.password() == null || server.password().isEmpty()) {
            throw new UsageException("setting nqueens.db-server.password is empty: psql cannot log in without one");
        }
    }

    /** Probes the folder the way the export will use it: create it if missing, write, delete. */
    static void checkWritableFolder(Path folder) {
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw new UsageException("output folder " + folder + " is a file, not a folder");
        }
        try {
            Files.createDirectories(folder);
            Path probe = Files.createTempFile(folder, ".write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new UsageException("output folder " + folder + " is not writable (" + e.getClass().getSimpleName()
                    + ": " + e.getMessage() + ")");
        }
    }
}
