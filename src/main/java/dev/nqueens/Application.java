package dev.nqueens;

import dev.nqueens.cli.Commands;
import dev.nqueens.cluster.BrokerCheck;
import dev.nqueens.cluster.PartitionWorker;
import dev.nqueens.cli.ExitCodes;
import dev.nqueens.cli.Invocation;
import dev.nqueens.cli.SettingsCheck;
import dev.nqueens.cli.UsageException;
import dev.nqueens.job.NightlyRun;
import dev.nqueens.job.NightlyScheduler;
import dev.nqueens.job.RunInProgressException;
import dev.nqueens.h2.DatabaseServer;
import dev.nqueens.h2.H2CrashRecovery;
import dev.nqueens.h2.H2File;
import dev.nqueens.store.SchemaCheck;
import dev.nqueens.web.Serve;
import dev.nqueens.h2.HolderMarker;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Entry point: parses the command line before anything starts, then runs the command in a Spring
 * context and exits with its outcome. Bad input gets one line on stderr and exit code 2; see
 * {@link ExitCodes} for the others. SIGTERM (or Ctrl-C) during a run stops the job at its next
 * chunk boundary, marks it stopped and only then closes the database; the next run resumes it.
 */
@SpringBootApplication
public class Application {

    /** H2's "database may be already in use" error code. */
    private static final int H2_DATABASE_ALREADY_OPEN = 90020;
    /** H2's "database not found, and IFEXISTS=true" error code. */
    private static final int H2_DATABASE_NOT_FOUND = 90146;
    /** The commands that only read: on an embedded H2 file they open it read-only and never create it. */
    private static final java.util.Set<String> READING = java.util.Set.of(Invocation.SHOW, Invocation.SQL,
            Invocation.HISTORY, Invocation.VERIFY);
    private static final long STOP_GRACE_SECONDS = 120;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command line and returns the exit code (used by main and by the tests). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Invocation invocation;
        try {
            invocation = Invocation.parse(args);
        } catch (UsageException e) {
            err.println("nqueens: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        if (Invocation.HELP.equals(invocation.command())) {
            out.print(Invocation.usage());
            return ExitCodes.OK;
        }
        if (Invocation.COUNT.equals(invocation.command())) {
            return Commands.count(invocation, out, err);
        }
        if (Invocation.DB_SERVER.equals(invocation.command())) {
            // Read once when H2 loads: its servers then listen on the loopback interface only.
            System.setProperty("h2.bindAddress", "127.0.0.1");
        }
        silenceStartupFailureLog();
        String[] databaseUrl = {"the database", null};
        SpringApplication application = new SpringApplication(Application.class);
        application.setBannerMode(Banner.Mode.OFF);
        boolean serves = Invocation.SERVE.equals(invocation.command());
        application.setWebApplicationType(serves ? WebApplicationType.SERVLET : WebApplicationType.NONE);
        if (serves) {
            // The web beans and the settings of application-serve.yml exist for serve only.
            application.setAdditionalProfiles(Serve.PROFILE);
        }
        application.setLogStartupInfo(false);
        application.setRegisterShutdownHook(false);
        boolean schedules = Invocation.SCHEDULE.equals(invocation.command());
        boolean clusterCommand = Invocation.WORKER.equals(invocation.command())
                || Invocation.CLUSTER.equals(invocation.command());
        application.addListeners(new SettingsCheck(Invocation.RUN.equals(invocation.command()) || schedules || serves,
                schedules || serves, Invocation.DB_SERVER.equals(invocation.command()), clusterCommand),
                (ApplicationEnvironmentPreparedEvent event) -> {
                    databaseUrl[1] = event.getEnvironment().getProperty("spring.datasource.url");
                    databaseUrl[0] = withoutOptions(databaseUrl[1] == null ? "the database" : databaseUrl[1]);
                });
        if (READING.contains(invocation.command())) {
            application.addListeners((ApplicationEnvironmentPreparedEvent event) -> openH2ReadOnly(event.getEnvironment()));
        }
        if (Invocation.RUN.equals(invocation.command()) || schedules) {
            application.addListeners((ApplicationEnvironmentPreparedEvent event) -> recoverH2(event, out));
        } else {
            // Only the commands that run the job migrate the schema; the others check its version.
            application.addInitializers(context -> context.getBeanFactory().registerSingleton("schemaCheck",
                    new SchemaCheck()));
        }
        ConfigurableApplicationContext context;
        try {
            context = application.run(invocation.springArguments());
        } catch (RuntimeException e) {
            return report(e, databaseUrl, err);
        }
        CountDownLatch finished = new CountDownLatch(1);
        boolean worker = Invocation.WORKER.equals(invocation.command());
        Thread stopper = new Thread(() -> stopGracefully(context, finished, err, worker), "nqueens-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            return context.getBean(Commands.class).execute(invocation, out, err);
        } catch (RuntimeException e) {
            return report(e, databaseUrl, err);
        } finally {
            context.close();
            finished.countDown();
            removeHook(stopper);
        }
    }

    /**
     * Reading never writes: an embedded H2 file opened for writing rewrites its header even when
     * nothing changes, so the reading commands open it with {@code ACCESS_MODE_DATA=r}, and with
     * {@code IFEXISTS=TRUE} so that a missing database is reported instead of created.
     */
    private static void openH2ReadOnly(ConfigurableEnvironment environment) {
        H2File.of(environment.getProperty("spring.datasource.url")).ifPresent(file -> environment.getPropertySources()
                .addFirst(new MapPropertySource("nqueensReadOnly", java.util.Map.of("spring.datasource.url",
                        file.readOnlyUrl() + ";IFEXISTS=TRUE"))));
    }

    /** A run that was killed with the embedded H2 file open leaves it to be rebuilt before it is used again. */
    private static void recoverH2(ApplicationEnvironmentPreparedEvent event, PrintStream out) {
        org.springframework.core.env.Environment environment = event.getEnvironment();
        H2File.of(environment.getProperty("spring.datasource.url")).ifPresent(file -> new H2CrashRecovery(file,
                environment.getProperty("spring.datasource.username", "sa"),
                environment.getProperty("spring.datasource.password", ""), out).recoverIfNeeded());
    }

    /**
     * Boot logs a failed start with a stack trace, before our logging settings are read when the
     * configuration itself is broken; the command line reports every failure as one line instead.
     */
    private static void silenceStartupFailureLog() {
        if (org.slf4j.LoggerFactory.getLogger(SpringApplication.class)
                instanceof ch.qos.logback.classic.Logger logger) {
            logger.setLevel(ch.qos.logback.classic.Level.OFF);
        }
    }

    /** On SIGTERM: ask a running job to stop at a chunk boundary and wait until it has. */
    private static void stopGracefully(ConfigurableApplicationContext context, CountDownLatch finished,
            PrintStream err, boolean worker) {
        try {
            if (context.isActive()) {
                context.getBean(NightlyScheduler.class).stop();
                context.getBean(DatabaseServer.class).stop();
                context.getBeanProvider(PartitionWorker.class).ifAvailable(PartitionWorker::stop);
                context.getBeanProvider(Serve.class).ifAvailable(Serve::stop);
            }
            if (context.isActive() && context.getBean(NightlyRun.class).stopRunning()) {
                err.println("nqueens: stopping at the next chunk boundary; the next run resumes");
            }
            finished.await(STOP_GRACE_SECONDS, TimeUnit.SECONDS);
            if (worker) {
                // A worker told to stop has handed back what it held: that is its normal end, exit 0.
                err.flush();
                Runtime.getRuntime().halt(ExitCodes.OK);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the context is already closing on its own
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook is running
        }
    }

    /** @param urls the database URL as shown (without its options) and as configured */
    private static int report(RuntimeException failure, String[] urls, PrintStream err) {
        String databaseUrl = urls[0];
        UsageException usage = findCause(failure, UsageException.class);
        if (usage != null) {
            err.println("nqueens: " + usage.getMessage());
            return ExitCodes.USAGE;
        }
        BrokerCheck.BrokerUnavailableException broker = findCause(failure, BrokerCheck.BrokerUnavailableException.class);
        if (broker != null) {
            err.println("nqueens: " + broker.getMessage());
            return ExitCodes.DATABASE;
        }
        RunInProgressException busy = findCause(failure, RunInProgressException.class);
        if (busy != null) {
            err.println("nqueens: " + busy.getMessage());
            return ExitCodes.BUSY;
        }
        PortInUseException port = findCause(failure, PortInUseException.class);
        if (port != null) {
            err.println("nqueens: port " + port.getPort() + " is in use by another program; choose another with --port"
                    + " or server.port");
            return ExitCodes.USAGE;
        }
        SQLException sql = findCause(failure, SQLException.class);
        if (sql != null && (sql.getErrorCode() == H2_DATABASE_ALREADY_OPEN
                || String.valueOf(sql.getMessage()).contains("The file is locked"))) {
            String holder = H2File.of(urls[1]).flatMap(HolderMarker::liveHolder).map(HolderMarker.Holder::describe)
                    .orElse("another process (another nqueens run?)");
            err.println("nqueens: the database " + databaseUrl + " is in use by " + holder + "; one run at a time");
            return ExitCodes.BUSY;
        }
        if (isUnusableDatabaseUrl(failure)) {
            err.println("nqueens: cannot use the database " + databaseUrl + ": no JDBC driver here takes this URL"
                    + " (jdbc:h2:file:... or jdbc:postgresql://host:port/database)");
            return ExitCodes.DATABASE;
        }
        if (sql != null && sql.getErrorCode() == H2_DATABASE_NOT_FOUND) {
            err.println("nqueens: the database " + databaseUrl + " does not exist yet: `./nqueens run` creates it");
            return ExitCodes.DATABASE;
        }
        if (isConfigurationError(failure)) {
            err.println("nqueens: cannot read the configuration" + configurationLocation(failure) + ": "
                    + oneLine(rootCause(failure)));
            return ExitCodes.USAGE;
        }
        if (sql != null) {
            err.println("nqueens: cannot use the database " + databaseUrl + ": " + rootMessage(failure));
            return ExitCodes.DATABASE;
        }
        err.println("nqueens: " + rootMessage(failure));
        return ExitCodes.FAILED;
    }

    /** {@code jdbc:h2:file:./data/nqueens;MODE=…} → {@code jdbc:h2:file:./data/nqueens}; credentials in a query dropped. */
    private static String withoutOptions(String url) {
        return url.replaceAll("[;?].*$", "");
    }

    /** A datasource URL that no driver on the classpath accepts (a typo such as {@code jdbc:nope:x}). */
    private static boolean isUnusableDatabaseUrl(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.contains("claims to not accept jdbcUrl") || message.contains("No suitable driver")
                    || message.contains("Failed to determine a suitable driver class")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isConfigurationError(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String type = t.getClass().getName();
            if (type.startsWith("org.yaml.snakeyaml") || type.startsWith("org.springframework.boot.context.config.")) {
                return true;
            }
        }
        return false;
    }

    /** The file Boot names in its wrapping exception: " (optional:file:./config/application.yml)". */
    private static String configurationLocation(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            java.util.regex.Matcher location = java.util.regex.Pattern.compile("location '([^']+)'")
                    .matcher(String.valueOf(t.getMessage()));
            if (location.find()) {
                return " " + location.group(1);
            }
        }
        return "";
    }

    /** A multi-line parser message as one line: its lines joined, the caret lines dropped. */
    private static String oneLine(Throwable failure) {
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return message.lines().map(String::strip).filter(line -> !line.isEmpty() && !line.equals("^"))
                .collect(java.util.stream.Collectors.joining(" "));
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static String firstLine(Throwable failure) {
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return message.lines().findFirst().orElse(message);
    }

    private static String rootMessage(Throwable failure) {
        return firstLine(rootCause(failure));
    }
}
