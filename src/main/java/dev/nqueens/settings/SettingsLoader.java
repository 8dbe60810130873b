package dev.nqueens.settings;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.core.convert.converter.GenericConverter;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * The one way every command reads its settings, with or without an application context: the
 * jar's {@code application.yml}, {@code config/application.yml} of the working directory, the
 * environment variables and the command's own options, through Spring Boot's config-data loading
 * and {@link Binder}, each key checked as it is bound ({@link NqueensProperties}). A command that
 * starts a context hands it {@link #environment} before the files are read, and Boot reads them
 * the same way.
 */
public final class SettingsLoader {

    private static final String ROOT = "nqueens";

    /**
     * Where a command's settings come from besides the files.
     *
     * @param workingDirectory where {@code config/} is looked for (the process's, except in tests)
     * @param variables the environment variables
     * @param options settings the command's options override ({@code nqueens.sizes} for
     *     {@code --sizes}), with the highest precedence
     * @param profiles the Spring profiles whose {@code application-PROFILE.yml} apply
     */
    public record Sources(
            Path workingDirectory, Map<String, String> variables, Map<String, String> options, List<String> profiles) {

        public Sources {
            variables = Map.copyOf(variables);
            options = new LinkedHashMap<>(options);
            profiles = List.copyOf(profiles);
        }
    }

    private SettingsLoader() {}

    /**
     * The environment of a command before the configuration files are read: its options, the
     * given environment variables, and the places Boot reads files from, under its working
     * directory.
     */
    public static StandardEnvironment environment(Sources sources) {
        StandardEnvironment environment = new StandardEnvironment();
        var propertySources = environment.getPropertySources();
        propertySources.replace(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new LinkedHashMap<>(sources.variables())));
        if (!sources.options().isEmpty()) {
            propertySources.addFirst(new SimpleCommandLinePropertySource(sources.options().entrySet().stream()
                    .map(option -> "--" + option.getKey() + "=" + option.getValue())
                    .toArray(String[]::new)));
        }
        Path here = Path.of("").toAbsolutePath();
        if (!sources.workingDirectory().toAbsolutePath().equals(here)) {
            // Boot's default locations, under another folder than the process's (in-process tests).
            String dir = sources.workingDirectory().toAbsolutePath().toString();
            propertySources.addLast(new MapPropertySource(
                    "nqueensWorkingDirectory",
                    Map.of(
                            "spring.config.location",
                            "optional:classpath:/;optional:classpath:/config/,optional:file:" + dir + "/;optional:file:"
                                    + dir + "/config/;optional:file:" + dir + "/config/*/")));
        }
        environment.setActiveProfiles(sources.profiles().toArray(String[]::new));
        return environment;
    }

    /**
     * The environment with the configuration files read as Spring Boot reads them, for a command
     * that starts no application context.
     */
    public static ConfigurableEnvironment load(Sources sources) {
        StandardEnvironment environment = environment(sources);
        ConfigDataEnvironmentPostProcessor.applyTo(
                environment,
                new DefaultResourceLoader(SettingsLoader.class.getClassLoader()),
                new DefaultBootstrapContext(),
                sources.profiles());
        return environment;
    }

    /**
     * Binds and checks the {@code nqueens.*} settings. A key that no setting has is refused when it
     * comes from a configuration file or the command line; environment variables are not checked,
     * since every variable maps onto some key ({@code NQUEENS_JAVA_OPTS} is the launcher's).
     *
     * @throws InvalidSettingException naming the key, its value and what is allowed
     */
    public static NqueensProperties bind(Environment environment) {
        BindHandler handler = new NoUnboundElementsBindHandler(BindHandler.DEFAULT, SettingsLoader::operatorSource);
        Binder binder = new Binder(
                ConfigurationPropertySources.get(environment),
                new PropertySourcesPlaceholdersResolver(environment),
                Conversions.SERVICE);
        try {
            return binder.bindOrCreate(ROOT, Bindable.of(NqueensProperties.class), handler);
        } catch (BindException e) {
            throw translated(e);
        }
    }

    /**
     * Spring Boot's conversions, with lengths of time read by {@link Durations#parse} instead of
     * Boot's own rules (which take {@code 90} for 90 milliseconds and {@code 3M} for three minutes).
     * Ours is added last: for the same source and target a conversion service tries the converter
     * added last first. It is the only service the binder is given, so a value ours refuses is not
     * handed on to Boot's converter (the binder tries its services in turn). Made when first bound.
     */
    private static final class Conversions {

        static final ApplicationConversionService SERVICE = new ApplicationConversionService();

        static {
            SERVICE.addConverter(new LengthOfTime());
        }
    }

    /** Text, or a number (YAML's {@code 90}), to a {@link Duration}, as {@link Durations#parse} reads it. */
    private static final class LengthOfTime implements GenericConverter {

        @Override
        public Set<ConvertiblePair> getConvertibleTypes() {
            return Set.of(
                    new ConvertiblePair(String.class, Duration.class),
                    new ConvertiblePair(Number.class, Duration.class));
        }

        @Override
        public Object convert(Object source, TypeDescriptor sourceType, TypeDescriptor targetType) {
            return source == null ? null : Durations.parse(source.toString());
        }
    }

    /** A configuration file or the command line: what an operator writes keys into. */
    private static boolean operatorSource(ConfigurationPropertySource source) {
        Object underlying = source.getUnderlyingSource();
        return underlying instanceof OriginTrackedMapPropertySource
                || underlying instanceof SimpleCommandLinePropertySource;
    }

    private static RuntimeException translated(BindException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidSettingException setting) {
                return setting;
            }
            if (cause instanceof UnboundConfigurationPropertiesException unknown) {
                ConfigurationProperty first =
                        unknown.getUnboundProperties().iterator().next();
                return new InvalidSettingException("unknown setting '" + first.getName() + "' in "
                        + describe(first.getSource().getUnderlyingSource()) + "; known settings: "
                        + String.join(", ", knownKeys()));
            }
        }
        ConfigurationProperty property = failure.getProperty();
        if (property == null) {
            return new InvalidSettingException("setting " + failure.getName() + ": "
                    + NestedExceptionUtils.getMostSpecificCause(failure).getMessage());
        }
        return new InvalidSettingException("invalid setting " + property.getName() + "='" + property.getValue() + "': "
                + allowed(failure.getTarget().getType().resolve(Object.class)));
    }

    private static String allowed(Class<?> type) {
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == int.class || type == Integer.class) {
            return "a whole number";
        }
        if (type == Duration.class) {
            return Durations.FORMS;
        }
        return "not a " + type.getSimpleName();
    }

    /** "config/application.yml" for Boot's "Config resource 'file [config/application.yml]' via location …". */
    private static String describe(Object source) {
        if (source instanceof SimpleCommandLinePropertySource) {
            return "the command line";
        }
        String name = source instanceof PropertySource<?> named ? named.getName() : String.valueOf(source);
        int start = name.indexOf('[');
        int end = name.indexOf(']', start + 1);
        return start >= 0 && end > start ? name.substring(start + 1, end) : name;
    }

    /** Every key of {@link NqueensProperties}, as an operator writes it: {@code nqueens.storage.all-up-to}. */
    static List<String> knownKeys() {
        TreeSet<String> keys = new TreeSet<>();
        collectKeys(ROOT, NqueensProperties.class, keys);
        return new ArrayList<>(keys);
    }

    private static void collectKeys(String prefix, Class<?> type, TreeSet<String> keys) {
        for (RecordComponent component : type.getRecordComponents()) {
            String key = prefix + "." + kebab(component.getName());
            if (component.getType().isRecord()) {
                collectKeys(key, component.getType(), keys);
            } else {
                keys.add(key);
            }
        }
    }

    private static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }
}
