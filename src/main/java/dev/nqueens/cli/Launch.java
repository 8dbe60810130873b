package dev.nqueens.cli;

import dev.nqueens.Application;
import dev.nqueens.cluster.BrokerCheck;
import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.failure.UnavailableException;
import dev.nqueens.h2.H2CrashRecovery;
import dev.nqueens.h2.H2File;
import dev.nqueens.h2.OwnerPassword;
import dev.nqueens.h2.ReadingLogin;
import dev.nqueens.job.NightlyJobConfiguration;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.SettingsLoader;
import dev.nqueens.store.Database;
import dev.nqueens.store.SchemaCheck;
import dev.nqueens.web.Serve;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Starts what a command declares it {@link Needs}, in this order, so that bad input changes
 * nothing: the settings (read and checked), the services of cluster mode (the broker answers), the
 * output folder (writable), the database (the H2 file rebuilt after a killed run, the schema
 * version checked or migrated), and only then, for a command that needs the job or the web, an
 * application context with just those parts.
 */
final class Launch {

    private final Console console;
    private Database database;
    private boolean debug;

    Launch(Console console) {
        this.console = console;
    }

    /** {@code --debug}: the libraries' log on the console too, and a failure's stack trace. */
    void debug(boolean debug) {
        this.debug = debug;
    }

    boolean debug() {
        return debug;
    }

    Console console() {
        return console;
    }

    /** The database the command opened (or was about to), for naming it in a failure. */
    Optional<Database> database() {
        return Optional.ofNullable(database);
    }

    /**
     * @param options the settings the command's options override, e.g. {@code nqueens.sizes}
     */
    Session open(Needs needs, Map<String, String> options) {
        return open(needs, options, (settings, database) -> {});
    }

    /**
     * @param options the settings the command's options override, e.g. {@code nqueens.sizes}
     * @param precondition what the command requires of its settings and the configured database,
     *     checked before the database is opened (e.g. {@code db-server}: an embedded H2 file)
     */
    Session open(Needs needs, Map<String, String> options, BiConsumer<NqueensProperties, Database> precondition) {
        Map<String, String> settingsOfThisRun = new HashMap<>(options);
        if (needs.cluster()) {
            settingsOfThisRun.put("nqueens.cluster.enabled", "true");
        }
        List<String> profiles = needs.web() ? List.of(Serve.PROFILE) : List.of();
        ConfigurableEnvironment environment = SettingsLoader.load(new SettingsLoader.Sources(
                console.workingDirectory(), console.variables(), settingsOfThisRun, profiles));
        NqueensProperties settings = SettingsLoader.bind(environment);
        if (needs.database() == Needs.Database.NONE && !needs.exports()) {
            return new Session(console, environment, settings, null, null, null);
        }
        database = Database.of(environment, settings);
        precondition.accept(settings, database);
        if (needs.cluster() || settings.clusterMode() && needs.job()) {
            BrokerCheck.checkClusterSettings(environment);
            // Before anything is opened or written: an unreachable broker is exit 4, one line.
            BrokerCheck.check(environment);
        }
        if (needs.exports()) {
            // Last of the checks: the probe creates the folder, and bad settings must leave nothing behind.
            checkWritableFolder(Path.of(settings.outputDir()));
        }
        if (needs.database() == Needs.Database.NONE) {
            return new Session(console, environment, settings, database, null, null);
        }
        Database.Access access = switch (needs.database()) {
            // A command that reads answers one request and ends: through the holder's server if there is one.
            case READ -> database.reading();
            // A lambda, not database::writing: owned() replaces the database once it has a password.
            case WRITE -> owned(() -> database.writing(), environment, settings);
            default -> owned(this::migrating, environment, settings);
        };
        boolean migrating = needs.database() == Needs.Database.MIGRATE;
        if (!migrating) {
            // Flyway migrates in the context; the others check the schema version first.
            SingleConnectionDataSource connection = access.dataSource();
            try {
                checkSchema(connection, needs.database() == Needs.Database.READ);
            } catch (RuntimeException e) {
                connection.destroy();
                throw e;
            }
            if (!needs.context()) {
                return new Session(console, environment, settings, database, connection, null);
            }
            connection.destroy();
        }
        return new Session(
                console, environment, settings, database, null, start(needs, migrating, environment, settings));
    }

    /** A killed run's H2 file is rebuilt before anything else opens it (a held one is refused first). */
    private Database.Access migrating() {
        Database.Access access = database.migrating();
        database.h2File()
                .ifPresent(file -> new H2CrashRecovery(file, database.username(), database.password(), console.out())
                        .recoverIfNeeded());
        return access;
    }

    /**
     * How a command that writes connects ({@code access}: refusing a file another command holds),
     * once an embedded H2 file without a configured password has its generated one ({@link OwnerPassword}).
     * The first time, the access is asked for twice.
     */
    private Database.Access owned(
            Supplier<Database.Access> access, ConfigurableEnvironment environment, NqueensProperties settings) {
        Optional<H2File> file = database.h2File();
        if (file.isPresent()
                && Database.configured(environment).getPassword() == null
                && OwnerPassword.read(file.get()).isEmpty()) {
            access.get(); // first: a held or missing file is refused before anything is written
            try {
                OwnerPassword.ensure(file.get(), database.username());
            } catch (SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
            database = Database.of(environment, settings);
        }
        return access.get();
    }

    /**
     * @param reading whether the command reads with the reading commands' login, whose refusal
     *     says how that login is made
     */
    private void checkSchema(DataSource connection, boolean reading) {
        try {
            SchemaCheck.check(connection);
        } catch (SQLException e) {
            if (reading && H2File.wrongLogin(e) && database.h2File().isPresent()) {
                throw new UnavailableException(
                        "cannot log in to " + database.shownUrl() + " with the reading commands'"
                                + " login " + ReadingLogin.USER
                                + ": every run, schedule, serve and db-server makes it, with a"
                                + " password derived from the owner's in "
                                + database.h2File().orElseThrow().passwordFile()
                                + "; run one of them first, or put back the password file the database came with",
                        e);
            }
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * An application context with the job, the web server or both, as the command needs: the
     * settings already read, Flyway only where the command migrates ({@code migrate}; the others
     * checked the schema version), and the auto-configurations
     * of the parts it does not need left out ({@link UnusedAutoConfigurations}).
     */
    ConfigurableApplicationContext start(
            Needs needs, boolean migrate, ConfigurableEnvironment environment, NqueensProperties settings) {
        boolean cluster = needs.cluster() || settings.clusterMode();
        Map<String, Object> command = new HashMap<>(Map.of(
                "spring.flyway.enabled",
                migrate,
                "spring.autoconfigure.exclude",
                String.join(",", UnusedAutoConfigurations.of(needs.web(), cluster))));
        String logFile = environment.getProperty("logging.file.name", "");
        if (!logFile.isBlank()) {
            // Beside data/ and output/: under the command's working directory.
            command.put(
                    "logging.file.name",
                    console.workingDirectory().resolve(logFile).toString());
        }
        if (needs.web() && needs.job()) {
            // serve: the job's beans are made when its first night needs them, not before the first page.
            command.put("spring.main.lazy-initialization", true);
        }
        if (debug) {
            command.put("logging.threshold.console", "INFO");
        }
        environment.getPropertySources().addFirst(new MapPropertySource("nqueensCommand", command));
        SpringApplication application = new SpringApplication(Application.class);
        application.setEnvironment(environment);
        application.setBannerMode(Banner.Mode.OFF);
        application.setWebApplicationType(needs.web() ? WebApplicationType.SERVLET : WebApplicationType.NONE);
        application.setLogStartupInfo(false);
        application.setRegisterShutdownHook(false);
        application.addInitializers(
                context -> context.getBeanFactory().registerSingleton(NightlyJobConfiguration.CONSOLE, console.out()));
        silenceStartupFailureLog();
        return application.run();
    }

    /**
     * Boot logs a failed start with a stack trace, before our logging settings are read when the
     * configuration itself is broken; the command line reports every failure as one line instead.
     */
    private static void silenceStartupFailureLog() {
        for (String name : new String[] {SpringApplication.class.getName(), FAILURE_ANALYSIS}) {
            if (org.slf4j.LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logger) {
                logger.setLevel(ch.qos.logback.classic.Level.OFF);
            }
        }
    }

    /** Boot's "APPLICATION FAILED TO START" report, printed on stdout by default. */
    private static final String FAILURE_ANALYSIS =
            "org.springframework.boot.diagnostics.LoggingFailureAnalysisReporter";

    /** Probes the folder the way the export will use it: create it if missing, write, delete. */
    static void checkWritableFolder(Path folder) {
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw new InvalidInputException("output folder " + folder + " is a file, not a folder");
        }
        try {
            Files.createDirectories(folder);
            Path probe = Files.createTempFile(folder, ".write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new InvalidInputException("output folder " + folder + " is not writable ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
    }
}
