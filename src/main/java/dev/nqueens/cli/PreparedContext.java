package dev.nqueens.cli;

import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.SettingsLoader;
import dev.nqueens.web.Serve;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import org.springframework.aot.generate.GenerationContext;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.aot.BeanFactoryInitializationCode;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * {@code serve}'s application context as Spring's ahead-of-time processing prepares it when the jar
 * is built (the Boot plugin's {@code process-aot}, pom.xml): its bean definitions as generated code,
 * instead of configuration classes parsed and conditions evaluated at every start (a fifth of the
 * first page's time on 2 cores, docs/performance.md). The build evaluates the conditions once, with
 * the jar's own settings ({@link #main}); a start uses that context only when it is the same one
 * ({@link #misfit}): {@code serve}, an embedded H2 file at this build's schema version, not in
 * cluster mode, and every setting the build's conditions read with the value it had then. Any
 * other start evaluates its conditions as before.
 */
public final class PreparedContext {

    /** Each setting the build's conditions read, with its value then (a properties file in the jar). */
    static final String SETTINGS = "dev/nqueens/cli/prepared-context.properties";
    /** Spring's switch for generated artifacts, read by {@code AotDetector}. */
    private static final String AOT_ENABLED = "spring.aot.enabled";
    /** The profiles the build's context had, under a key no setting can have. */
    private static final String PROFILES = "(active profiles)";
    /**
     * Settings whose values the conditions do not depend on: where the configuration files, the log
     * file and the database are, the port, the database's login. Whether the database is an
     * embedded H2 file (a condition) is checked on its own.
     */
    private static final Set<String> NOT_COMPARED = Set.of("server.port", "logging.file.name", "spring.datasource.url",
            "spring.datasource.username", "spring.datasource.password");

    private PreparedContext() {
    }

    /**
     * The build's entry (process-aot): starts {@code serve}'s context the way {@link Launch} does, with
     * the jar's settings alone (an empty folder, no variables), for Spring to process it; records
     * each setting its conditions read.
     */
    public static void main(String[] args) throws IOException {
        Path folder = Files.createTempDirectory("nqueens-prepared");
        try {
            PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
            Console console = new Console(folder, Map.of(), nowhere, nowhere);
            ConfigurableEnvironment environment = SettingsLoader.load(new SettingsLoader.Sources(folder, Map.of(),
                    Map.of(), List.of(Serve.PROFILE)));
            NqueensProperties settings = SettingsLoader.bind(environment);
            Recorder recorder = new Recorder();
            new Launch(console).start(ServeCommand.NEEDS, false, environment, settings, application ->
                    application.addInitializers(context -> {
                        context.getEnvironment().getPropertySources().addFirst(recorder);
                        context.getBeanFactory().registerSingleton("nqueensPreparedContextSettings",
                                new Contribution(recorder));
                    }));
        } finally {
            FileSystemUtils.deleteRecursively(folder);
        }
    }

    /**
     * Prepares {@code application} to start from the generated code if this start is the build's
     * context; otherwise makes sure it does not.
     *
     * @param other how the command, the database or the mode differ from the build's (serve, an
     *     embedded H2 file at this schema version, no cluster), if they do
     * @return why the prepared context is not used; empty when it is
     */
    static Optional<String> use(SpringApplication application, Optional<String> other,
            ConfigurableEnvironment environment) {
        Optional<String> misfit = other.or(() -> misfit(environment));
        if (misfit.isPresent()) {
            System.clearProperty(AOT_ENABLED);
        } else {
            System.setProperty(AOT_ENABLED, "true");
            application.setMainApplicationClass(PreparedContext.class);
        }
        return misfit;
    }

    /** Why the build's context does not fit this environment, if it does not. */
    static Optional<String> misfit(Environment environment) {
        Properties built = new Properties();
        try (InputStream in = PreparedContext.class.getClassLoader().getResourceAsStream(SETTINGS)) {
            if (in == null) {
                return Optional.of("this build has none");
            }
            built.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.of("its settings cannot be read (" + e.getMessage() + ")");
        }
        return misfit(environment, built);
    }

    /** Why the build's context, which saw these settings ({@link #SETTINGS}), does not fit this environment. */
    static Optional<String> misfit(Environment environment, Properties built) {
        String profiles = String.join(",", environment.getActiveProfiles());
        if (!profiles.equals(built.getProperty(PROFILES))) {
            return Optional.of("the active profiles are " + profiles + ", the build's " + built.getProperty(PROFILES));
        }
        if (CloudPlatform.getActive(environment) != null) {
            return Optional.of("a cloud platform is detected");
        }
        Binder binder = Binder.get(environment);
        for (String key : new TreeSet<>(built.stringPropertyNames())) {
            if (key.equals(PROFILES)) {
                continue;
            }
            String now = value(binder, environment, key);
            String then = decoded(built.getProperty(key));
            if (!Objects.equals(now, then)) {
                return Optional.of("setting " + key + " is " + shown(now) + ", the build's " + shown(then));
            }
        }
        return Optional.empty();
    }

    /** "" for a setting unset, "=" + its value otherwise: a setting set to "" differs from one unset. */
    private static String encoded(String value) {
        return value == null ? "" : "=" + value;
    }

    private static String decoded(String recorded) {
        return recorded.isEmpty() ? null : recorded.substring(1);
    }

    private static String shown(String value) {
        return value == null ? "unset" : "'" + value + "'";
    }

    /** A setting's value as a string, as Boot binds it from any source (variables included). */
    private static String value(Binder binder, Environment environment, String key) {
        if (!ConfigurationPropertyName.isValid(key)) {
            return environment.getProperty(key);
        }
        try {
            return binder.bind(key, String.class).orElse(null);
        } catch (RuntimeException e) {
            return "(" + e.getClass().getSimpleName() + ")";
        }
    }

    /** Notes each setting looked up while the build's context is processed; answers none. */
    private static final class Recorder extends PropertySource<Object> {

        private final Set<String> keys = new ConcurrentSkipListSet<>();
        private volatile boolean recording = true;

        Recorder() {
            super("nqueensPreparedContextRecorder", new Object());
        }

        @Override
        public Object getProperty(String name) {
            if (recording) {
                keys.add(name);
            }
            return null;
        }
    }

    /** Writes {@link #SETTINGS} into the build's generated resources. */
    private record Contribution(Recorder recorder) implements BeanFactoryInitializationAotProcessor {

        @Override
        public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
            ConfigurableEnvironment environment = beanFactory.getBean(ConfigurableEnvironment.class);
            recorder.recording = false;
            environment.getPropertySources().remove(recorder.getName());
            Properties settings = new Properties();
            settings.setProperty(PROFILES, String.join(",", environment.getActiveProfiles()));
            Binder binder = Binder.get(environment);
            for (String key : recorder.keys) {
                if (!NOT_COMPARED.contains(key) && !key.startsWith("spring.config.")) {
                    settings.setProperty(key, encoded(value(binder, environment, key)));
                }
            }
            StringWriter text = new StringWriter();
            try {
                settings.store(text, "serve's prepared context: each setting its conditions read, as it was");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return (GenerationContext context, BeanFactoryInitializationCode code) -> context.getGeneratedFiles()
                    .addResourceFile(SETTINGS, text.toString());
        }
    }
}
