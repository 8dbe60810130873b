package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.InProcess;
import dev.nqueens.NqueensProcess;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Settings a command cannot use, and services it cannot reach, run in this JVM: one line on
 * stderr naming what is wrong, nothing on stdout, the exit code of the table, and nothing written
 * (they are found before the database or the output folder is touched).
 */
@ResourceLock(TestResources.TEST_JVM) // command lines in this JVM (InProcess)
class BadSettingsIntegrationTests {

    @TempDir
    Path workingDirectory;

    @Test
    void aBadSizeListInTheConfigurationIsRefused() throws Exception {
        writeConfig("nqueens:\n  sizes: 5-2\n");
        NqueensProcess.Result result = nqueens("run");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("nqueens: ").contains("nqueens.sizes", "'5-2'", "1..25");
        assertRefusedCleanly(result);
    }

    /**
     * Each row: the file's text, then what the line must name (the setting, the value refused, what is
     * allowed; the line YAML cannot parse), separated by {@code &}. In this JVM the file is named by its
     * absolute path; the jar names it as Boot found it.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "malformed YAML  | 'nqueens:\n  sizes: [1-3\n' | line 2",
                "unknown key     | 'nqueens:\n  sizez: 1-3\n'  | config/application.yml & 'nqueens.sizez' & nqueens.sizes",
                "bad value       | 'nqueens:\n  threads: many\n' | nqueens.threads & 'many'",
                "bad boolean     | 'nqueens:\n  schedule:\n    enabled: maybe\n' | nqueens.schedule.enabled & 'maybe' & true or false",
                "bad window      | 'nqueens:\n  schedule:\n    window: 0s\n' | nqueens.schedule.window & PT0S & zero",
                "bad zone        | 'nqueens:\n  schedule:\n    zone: Mars/Base\n' | nqueens.schedule.zone & 'Mars/Base'",
                "bad cron        | 'nqueens:\n  schedule:\n    cron: \"61 * * * *\"\n' | nqueens.schedule.cron & '61 * * * *'",
                "short timeout   | 'nqueens:\n  cluster:\n    worker-timeout: 2s\n' | nqueens.cluster.worker-timeout & PT2S & 4s",
                "bare number     | 'nqueens:\n  progress-interval: 500\n' | nqueens.progress-interval & '500' & s, m, h, d or w",
                "minutes as M    | 'nqueens:\n  outage-wait: 3M\n' | nqueens.outage-wait & '3M' & s, m, h, d or w",
                "window in ms    | 'nqueens:\n  schedule:\n    window: 18000\n' | nqueens.schedule.window & '18000' & s, m, h, d or w",
                "cross-check     | 'nqueens:\n  cluster:\n    cross-check: some\n' | nqueens.cluster.cross-check & 'some' & unpublished & all",
                "same ports      | 'nqueens:\n  db-server:\n    tcp-port: 5435\n' | nqueens.db-server.pg-port & tcp-port & 5435",
                "owner login     | 'nqueens:\n  db-server:\n    user: sa\n' | nqueens.db-server.user & 'sa'",
                "chunk size      | 'nqueens:\n  chunk-size: -1\n' | nqueens.chunk-size & -1",
                "negative limit  | 'nqueens:\n  storage:\n    all-up-to: -2\n' | nqueens.storage & all-up-to & -2 & 0..25"
            })
    void badConfigurationGetsOneLineExitTwoAndWritesNothing(String name, String yaml, String named) throws Exception {
        writeConfig(yaml.replace("\\n", "\n"));
        for (String[] command : new String[][] {{"run", "--sizes", "4"}, {"show", "8"}, {"schedule"}}) {
            NqueensProcess.Result result = nqueens(command);
            assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
            assertThat(result.err())
                    .startsWith("nqueens: ")
                    .contains(named.replace("config/", workingDirectory + "/config/")
                            .split(" & "));
            assertRefusedCleanly(result);
        }
    }

    /** A length of time in an environment variable is read as in the file: a bare number is refused. */
    @Test
    void aBareNumberForALengthOfTimeInAVariableIsRefused() throws Exception {
        for (String[] variable : new String[][] {
            {"NQUEENS_CLUSTER_WORKERTIMEOUT", "nqueens.cluster.worker-timeout"},
            {"NQUEENS_SCHEDULE_WINDOW", "nqueens.schedule.window"}
        }) {
            NqueensProcess.Result result =
                    InProcess.run(workingDirectory, Map.of(variable[0], "90"), "run", "--sizes", "4");
            assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
            assertThat(result.err()).startsWith("nqueens: ").contains(variable[1], "'90'");
            assertRefusedCleanly(result);
        }
    }

    @Test
    void anUnknownKeyOnTheCommandLineIsRefusedButEnvironmentVariablesAreNot() throws Exception {
        Map<String, String> launcherVariables = Map.of(
                "NQUEENS_JAVA_OPTS",
                "-Xmx1g",
                "NQUEENS_PEER",
                "/x/run",
                "NQUEENS_BENCH_REPEAT",
                "3",
                "NQUEENS_TEST_POSTGRES_URL",
                "jdbc:postgresql://x/y");
        NqueensProcess.Result quiet = InProcess.run(workingDirectory, launcherVariables, "show", "8");
        // Exit 4, the database not there yet: the variables passed, not refused as settings (exit 2).
        assertThat(quiet.exitCode()).as(quiet.err()).isEqualTo(4);
        assertThat(quiet.err())
                .startsWith("nqueens: ")
                .contains(workingDirectory.resolve("data/nqueens").toString());
        assertThat(quiet.err().lines()).hasSize(1);
    }

    @Test
    void clusterModeOnTheEmbeddedDatabaseOrWithoutABrokerLoginIsRefused() throws Exception {
        writeConfig("nqueens:\n  cluster:\n    enabled: true\n");
        NqueensProcess.Result onH2 = InProcess.runExactly(workingDirectory, Map.of(), "run", "--sizes", "4");
        assertThat(onH2.exitCode()).isEqualTo(2);
        assertThat(onH2.err())
                .startsWith("nqueens: ")
                .contains("PostgreSQL", "spring.datasource.url", "jdbc:h2:file:./data/nqueens");
        assertRefusedCleanly(onH2);
        writeConfig("nqueens:\n  cluster:\n    enabled: true\nspring:\n  datasource:\n"
                + "    url: jdbc:postgresql://127.0.0.1:9/nqueens\n");
        NqueensProcess.Result guest = InProcess.runExactly(workingDirectory, Map.of(), "run", "--sizes", "4");
        assertThat(guest.exitCode()).isEqualTo(2);
        assertThat(guest.err())
                .startsWith("nqueens: ")
                .contains("spring.rabbitmq.username", "spring.rabbitmq.password");
        assertRefusedCleanly(guest);
    }

    @Test
    void anUnreachableBrokerGetsExitFourBeforeAnythingIsTouched() throws Exception {
        writeConfig("nqueens:\n  cluster:\n    enabled: true\n    startup-wait: 2s\nspring:\n  datasource:\n"
                + "    url: jdbc:postgresql://127.0.0.1:9/nqueens\n  rabbitmq:\n    host: 127.0.0.1\n    port: 9\n"
                + "    username: nqueens\n    password: s3cret\n");
        for (String[] command : new String[][] {{"run", "--sizes", "4"}, {"cluster"}}) {
            NqueensProcess.Result result = InProcess.runExactly(workingDirectory, Map.of(), command);
            assertThat(result.exitCode()).as(result.err()).isEqualTo(4);
            assertThat(result.err())
                    .startsWith("nqueens: ")
                    .contains("amqp://127.0.0.1:9/")
                    .doesNotContain("s3cret");
            assertRefusedCleanly(result);
        }
        // A worker waits for the broker (nqueens.cluster.startup-wait), saying so once, then gives up.
        NqueensProcess.Result worker = InProcess.runExactly(workingDirectory, Map.of(), "worker");
        assertThat(worker.exitCode()).as(worker.err()).isEqualTo(4);
        assertThat(worker.err())
                .startsWith("nqueens: ")
                .contains("2.00 s", "amqp://127.0.0.1:9/")
                .doesNotContain("s3cret");
        assertThat(worker.err().lines()).hasSize(1);
        assertThat(worker.out().lines())
                .singleElement()
                .asString()
                .contains("amqp://127.0.0.1:9/")
                .doesNotContain("s3cret");
        try (Stream<Path> files = Files.list(workingDirectory)) {
            assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("data", "output");
        }
    }

    @Test
    void aMalformedDatabaseUrlGetsExitFour() throws Exception {
        for (String command : new String[] {"show", "run"}) {
            NqueensProcess.Result result =
                    InProcess.run(workingDirectory, Map.of("SPRING_DATASOURCE_URL", "jdbc:nope:x"), command, "8");
            assertThat(result.exitCode()).as(result.err()).isEqualTo(command.equals("run") ? 2 : 4);
            if (command.equals("show")) {
                // The URL refused, and the two forms that are taken.
                assertThat(result.err())
                        .startsWith("nqueens: ")
                        .contains("jdbc:nope:x", "jdbc:h2:file:", "jdbc:postgresql://");
            }
            assertRefusedCleanly(result);
        }
    }

    @Test
    void aDatabaseThatCannotBeOpenedGetsExitFour() throws Exception {
        writeConfig("spring:\n  datasource:\n    url: jdbc:postgresql://127.0.0.1:9/nqueens\n");
        NqueensProcess.Result result = InProcess.runExactly(workingDirectory, Map.of(), "show", "8");
        assertThat(result.exitCode()).isEqualTo(4);
        assertThat(result.err()).startsWith("nqueens: ").contains("jdbc:postgresql://127.0.0.1:9/nqueens");
        assertRefusedCleanly(result);
    }

    @Test
    void noDatabaseYetGetsExitFourForEveryReadingCommand() throws Exception {
        for (String[] command : new String[][] {{"show", "8"}, {"sql", "SELECT 1"}, {"history"}, {"verify"}}) {
            NqueensProcess.Result result = nqueens(command);
            assertThat(result.exitCode()).as(result.err()).isEqualTo(4);
            assertThat(result.err())
                    .startsWith("nqueens: ")
                    .contains(workingDirectory.resolve("data/nqueens").toString(), "./nqueens run");
            assertRefusedCleanly(result);
        }
    }

    @Test
    @EnabledIfEnvironmentVariable(
            named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+",
            disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void wrongPostgresCredentialsGetExitFour() throws Exception {
        Map<String, String> environment = new HashMap<>(TestDatabases.postgresEnvironment("nqueens_credentials_ft"));
        // The test server's URL may carry its own user=…; the role must be wrong wherever it is given.
        environment.put(
                "SPRING_DATASOURCE_URL",
                environment.get("SPRING_DATASOURCE_URL").replaceAll("([?&])user=[^&]*", "$1user=no_such_role"));
        environment.put("SPRING_DATASOURCE_USERNAME", "no_such_role");
        NqueensProcess.Result result = InProcess.run(workingDirectory, environment, "show", "8");
        assertThat(result.exitCode()).isEqualTo(4);
        assertThat(result.err()).startsWith("nqueens: ").contains("jdbc:postgresql://", "no_such_role");
        assertRefusedCleanly(result);
    }

    private void writeConfig(String yaml) throws IOException {
        Files.createDirectories(workingDirectory.resolve("config"));
        Files.writeString(workingDirectory.resolve("config/application.yml"), yaml);
    }

    private void assertRefusedCleanly(NqueensProcess.Result result) throws IOException {
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines()).hasSize(1);
        try (Stream<Path> files = Files.list(workingDirectory)) {
            assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("data", "output");
        }
    }

    private NqueensProcess.Result nqueens(String... args) {
        return InProcess.run(workingDirectory, args);
    }
}
