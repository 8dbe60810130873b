package dev.nqueens.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/** How every command reads its settings: the jar's defaults, the operator's file, the environment, the options. */
class SettingsLoaderTests {

    @TempDir
    Path workingDirectory;

    private NqueensProperties load(Map<String, String> variables, Map<String, String> options) {
        return SettingsLoader.bind(SettingsLoader.load(new SettingsLoader.Sources(workingDirectory, variables, options,
                List.of())));
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
        Files.writeString(workingDirectory.resolve("config/application.yml"),
                "nqueens:\n  sizes: 1-5\n  threads: 3\n  chunk-size: 10\n");
        NqueensProperties settings = load(Map.of("NQUEENS_THREADS", "4", "NQUEENS_CHUNK_SIZE", "20"),
                Map.of("nqueens.chunk-size", "30"));
        assertThat(settings.sizes()).isEqualTo("1-5");
        assertThat(settings.threads()).isEqualTo(4);
        assertThat(settings.chunkSize()).isEqualTo(30);
    }

    @Test
    void variablesOfTheLauncherAndTheTestsAreNoSettings() {
        NqueensProperties settings = load(Map.of("NQUEENS_JAVA_OPTS", "-Xmx1g", "NQUEENS_PEER", "x",
                "NQUEENS_BENCH_REPEAT", "2", "NQUEENS_TEST_RABBITMQ_URI", "amqp://x"), Map.of());
        assertThat(settings.sizes()).isEqualTo("1-18");
    }

    @Test
    void anUnknownKeyIsRefusedFromTheCommandLineAndItsListOfKnownKeysComesFromTheRecords() {
        assertThatThrownBy(() -> load(Map.of(), Map.of("nqueens.chunksize2", "3")))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith("unknown setting 'nqueens.chunksize2' in the command line; known settings: ");
        assertThat(SettingsLoader.knownKeys()).contains("nqueens.sizes", "nqueens.schedule.enabled",
                "nqueens.storage.all-up-to", "nqueens.db-server.tcp-port", "nqueens.cluster.cross-check",
                "nqueens.cluster.startup-wait", "nqueens.outage-wait").hasSize(22);
    }

    /** config/application.yml restates the defaults only in comments, and only as the jar has them. */
    @Test
    void theOperatorsExampleFileShowsExactlyTheJarsDefaults() throws IOException {
        List<String> commented = Files.readAllLines(Path.of("config", "application.yml"));
        assertThat(commented).allMatch(line -> line.isEmpty() || line.startsWith("#"));
        String example = commented.stream().filter(line -> line.matches("^# +[a-z-]+:( .*)?$"))
                .map(line -> line.substring(2)).collect(Collectors.joining("\n"));
        Map<String, String> shown = flatten(new Yaml().load(example));
        Map<String, String> jar;
        try (InputStream in = SettingsLoader.class.getResourceAsStream("/application.yml")) {
            jar = flatten(new Yaml().load(in));
        }
        assertThat(shown).isNotEmpty();
        shown.forEach((key, value) -> assertThat(jar).as(key).containsEntry(key, value));
        jar.keySet().stream().filter(key -> key.startsWith("nqueens.")).forEach(key -> assertThat(shown).containsKey(key));
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
