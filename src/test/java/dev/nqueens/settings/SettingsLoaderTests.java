package dev.nqueens.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.Yaml;

/** How every command reads its settings: the jar's defaults, the operator's file, the environment, the options. */
class SettingsLoaderTests {

    @TempDir
    Path workingDirectory;

    private NqueensProperties load(Map<String, String> variables, Map<String, String> options) {
        return SettingsLoader.bind(
                SettingsLoader.load(new SettingsLoader.Sources(workingDirectory, variables, options, List.of())));
    }

    @Test
    void theJarsDefaultsApplyWhenNothingElseSaysOtherwise() {
        NqueensProperties defaults = load(Map.of(), Map.of());
        assertThat(defaults.sizes()).isEqualTo("1-18");
        assertThat(defaults.storageLimits()).isEqualTo(new StorageLimits(13, 15));
        assertThat(defaults.schedule().cronExpression().toString()).isEqualTo("0 0 2 * * *");
        assertThat(defaults.schedule().timeWindow()).isEmpty();
        assertThat(defaults.schedule().enabled()).isTrue();
        assertThat(defaults.cluster().enabled()).isFalse();
    }

    @Test
    void optionsOverrideVariablesWhichOverrideTheFileWhichOverridesTheJar() throws IOException {
        Files.createDirectories(workingDirectory.resolve("config"));
        Files.writeString(
                workingDirectory.resolve("config/application.yml"),
                "nqueens:\n  sizes: 1-5\n  threads: 3\n  chunk-size: 10\n");
        NqueensProperties settings =
                load(Map.of("NQUEENS_THREADS", "4", "NQUEENS_CHUNK_SIZE", "20"), Map.of("nqueens.chunk-size", "30"));
        assertThat(settings.sizes()).isEqualTo("1-5");
        assertThat(settings.threads()).isEqualTo(4);
        assertThat(settings.chunkSize()).isEqualTo(30);
    }

    @Test
    void variablesOfTheLauncherAndTheTestsAreNoSettings() {
        NqueensProperties settings = load(
                Map.of(
                        "NQUEENS_JAVA_OPTS",
                        "-Xmx1g",
                        "NQUEENS_PEER",
                        "x",
                        "NQUEENS_BENCH_REPEAT",
                        "2",
                        "NQUEENS_TEST_RABBITMQ_URI",
                        "amqp://x"),
                Map.of());
        assertThat(settings.sizes()).isEqualTo("1-18");
    }

    @Test
    void anUnknownKeyIsRefusedFromTheCommandLineAndItsListOfKnownKeysComesFromTheRecords() {
        assertThatThrownBy(() -> load(Map.of(), Map.of("nqueens.chunksize2", "3")))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith("unknown setting 'nqueens.chunksize2' in the command line; known settings: ");
        assertThat(SettingsLoader.knownKeys())
                .contains(
                        "nqueens.sizes",
                        "nqueens.schedule.enabled",
                        "nqueens.storage.all-up-to",
                        "nqueens.db-server.tcp-port",
                        "nqueens.cluster.cross-check",
                        "nqueens.cluster.startup-wait",
                        "nqueens.outage-wait",
                        "nqueens.statement-timeout",
                        "nqueens.reading.username")
                .hasSize(25);
    }

    /** Every length of time, from a file or a variable, is read as Durations reads it, not as Spring Boot would. */
    @Test
    void lengthsOfTimeTakeAUnitOrIso8601() throws IOException {
        Files.createDirectories(workingDirectory.resolve("config"));
        Files.writeString(
                workingDirectory.resolve("config/application.yml"),
                "nqueens:\n  progress-interval: 30s\n"
                        + "  outage-wait: PT5M\n  cluster:\n    worker-timeout: 2m\n    startup-wait: 1w\n"
                        + "  schedule:\n    window: 90m\n");
        NqueensProperties settings = load(Map.of("NQUEENS_OUTAGE_WAIT", "1d"), Map.of());
        assertThat(settings.progressInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.outageWait()).isEqualTo(Duration.ofDays(1));
        assertThat(settings.cluster().workerTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(settings.cluster().startupWait()).isEqualTo(Duration.ofDays(7));
        assertThat(settings.schedule().timeWindow()).contains(Duration.ofMinutes(90));
    }

    /** A bare number (Spring Boot's milliseconds), in YAML a number, in a variable text: refused, naming the key. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "nqueens.progress-interval, 500",
        "nqueens.outage-wait, 3M",
        "nqueens.cluster.worker-timeout, 60",
        "nqueens.cluster.startup-wait, 1y",
        "nqueens.cluster.startup-wait, -5m",
        "nqueens.schedule.window, 18000"
    })
    void anyOtherFormIsRefusedFromTheFileAndFromTheEnvironment(String setting, String value) throws IOException {
        Files.createDirectories(workingDirectory.resolve("config"));
        // nqueens.cluster.worker-timeout as YAML writes it: nested keys, each level indented by two more spaces
        String[] keys = setting.split("\\.");
        StringBuilder yaml = new StringBuilder();
        for (int level = 0; level < keys.length; level++) {
            yaml.append("  ".repeat(level))
                    .append(keys[level])
                    .append(':')
                    .append(level == keys.length - 1 ? " " + value : "")
                    .append('\n');
        }
        Files.writeString(workingDirectory.resolve("config/application.yml"), yaml);
        String refusal = "invalid setting " + setting + "='" + value + "': a whole number and a unit s, m, h, d or w";
        assertThatThrownBy(() -> load(Map.of(), Map.of()))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith(refusal);
        Files.delete(workingDirectory.resolve("config/application.yml"));
        String variable =
                setting.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace("-", "");
        assertThatThrownBy(() -> load(Map.of(variable, value), Map.of()))
                .as(variable)
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith(refusal);
    }

    /** config/application.yml restates the defaults only in comments, and only as the jar has them. */
    @Test
    void theOperatorsExampleFileShowsExactlyTheJarsDefaults() throws IOException {
        List<String> commented = Files.readAllLines(Path.of("config", "application.yml"));
        assertThat(commented).allMatch(line -> line.isEmpty() || line.startsWith("#"));
        String example = commented.stream()
                .filter(line -> line.matches("^# +[a-z-]+:( .*)?$"))
                .map(line -> line.substring(2))
                .collect(Collectors.joining("\n"));
        Map<String, String> shown = flatten(new Yaml().load(example));
        Map<String, String> jar;
        try (InputStream in = SettingsLoader.class.getResourceAsStream("/application.yml")) {
            jar = flatten(new Yaml().load(in));
        }
        assertThat(shown).isNotEmpty();
        shown.forEach((key, value) -> assertThat(jar).as(key).containsEntry(key, value));
        jar.keySet().stream()
                .filter(key -> key.startsWith("nqueens."))
                .forEach(key -> assertThat(shown).containsKey(key));
    }

    private static Map<String, String> flatten(Object yaml) {
        Map<String, String> flat = new TreeMap<>();
        flatten("", yaml, flat);
        return flat;
    }

    private static void flatten(String prefix, Object node, Map<String, String> flat) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> flatten(prefix.isEmpty() ? key.toString() : prefix + "." + key, value, flat));
        } else {
            flat.put(prefix, node == null ? "" : node.toString());
        }
    }
}
