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
        assertThat(result.err())
                .isEqualTo("nqueens: setting nqueens.sizes: invalid size list '5-2': range 5-2 is"
                        + " descending; sizes are whole numbers 1..25, as a list and/or ascending ranges such as 1-12 or"
                        + " 4,8,10-12\n");
        assertRefusedCleanly(result);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "malformed YAML  | 'nqueens:\n  sizes: [1-3\n' | nqueens: cannot read the configuration:",
                "unknown key     | 'nqueens:\n  sizez: 1-3\n'  | nqueens: unknown setting 'nqueens.sizez' in config/application.yml",
                "bad value       | 'nqueens:\n  threads: many\n' | nqueens: invalid setting nqueens.threads='many'",
                "bad boolean     | 'nqueens:\n  schedule:\n    enabled: maybe\n' | nqueens: invalid setting nqueens.schedule.enabled='maybe': true or false",
                "bad window      | 'nqueens:\n  schedule:\n    window: 0s\n' | nqueens: invalid setting nqueens.schedule.window=PT0S: the window must be longer than zero",
                "bad zone        | 'nqueens:\n  schedule:\n    zone: Mars/Base\n' | nqueens: invalid setting nqueens.schedule.zone='Mars/Base'",
                "bad cron        | 'nqueens:\n  schedule:\n    cron: \"61 * * * *\"\n' | nqueens: setting nqueens.schedule.cron: invalid cron expression '61 * * * *'",
                "short timeout   | 'nqueens:\n  cluster:\n    worker-timeout: 2s\n' | nqueens: invalid setting nqueens.cluster.worker-timeout=PT2S: at least 4s",
                "bare number     | 'nqueens:\n  progress-interval: 500\n' | nqueens: invalid setting nqueens.progress-interval='500': a whole number and a unit s, m, h, d or w",
                "minutes as M    | 'nqueens:\n  outage-wait: 3M\n' | nqueens: invalid setting nqueens.outage-wait='3M': a whole number and a unit s, m, h, d or w",
                "window in ms    | 'nqueens:\n  schedule:\n    window: 18000\n' | nqueens: invalid setting nqueens.schedule.window='18000': a whole number and a unit s, m, h, d or w",
                "cross-check     | 'nqueens:\n  cluster:\n    cross-check: some\n' | nqueens: invalid setting nqueens.cluster.cross-check='some': unpublished or all",
                "same ports      | 'nqueens:\n  db-server:\n    tcp-port: 5435\n' | nqueens: nqueens.db-server.pg-port and tcp-port are both 5435",
                "owner login     | 'nqueens:\n  db-server:\n    user: sa\n' | nqueens: invalid setting nqueens.db-server.user='sa'",
                "chunk size      | 'nqueens:\n  chunk-size: -1\n' | nqueens: invalid setting nqueens.chunk-size=-1: a chunk holds at least 1 solution, or 0 to let the database choose",
                "negative limit  | 'nqueens:\n  storage:\n    all-up-to: -2\n' | nqueens: setting nqueens.storage: storage limit all-up-to=-2 is outside 0..25"
            })
    void badConfigurationGetsOneLineExitTwoAndWritesNothing(String name, String yaml, String message) throws Exception {
        writeConfig(yaml.replace("\\n", "\n"));
        for (String[] command : new String[][] {{"run", "--sizes", "4"}, {"show", "8"}, {"schedule"}}) {
            NqueensProcess.Result result = nqueens(command);
            assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
            // In this JVM the file is named by its absolute path; the jar names it as Boot found it.
            assertThat(result.err()).startsWith(message.replace("in config/", "in " + workingDirectory + "/config/"));
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
            assertThat(result.err())
                    .startsWith("nqueens: invalid setting " + variable[1] + "='90': a whole number and"
                            + " a unit s, m, h, d or w");
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
        assertThat(quiet.err()).doesNotContain("unknown setting").startsWith("nqueens: the database ");
        assertThat(quiet.exitCode()).isEqualTo(4);
    }

    @Test
    void clusterModeOnTheEmbeddedDatabaseOrWithoutABrokerLoginIsRefused() throws Exception {
        writeConfig("nqueens:\n  cluster:\n    enabled: true\n");
        NqueensProcess.Result onH2 = InProcess.runExactly(workingDirectory, Map.of(), "run", "--sizes", "4");
        assertThat(onH2.exitCode()).isEqualTo(2);
        assertThat(onH2.err())
                .isEqualTo(
                        "nqueens: cluster mode needs a shared PostgreSQL database, but"
                                + " spring.datasource.url is jdbc:h2:file:./data/nqueens (workers on other machines cannot share it)\n");
        assertRefusedCleanly(onH2);
        writeConfig("nqueens:\n  cluster:\n    enabled: true\nspring:\n  datasource:\n"
                + "    url: jdbc:postgresql://127.0.0.1:9/nqueens\n");
        NqueensProcess.Result guest = InProcess.runExactly(workingDirectory, Map.of(), "run", "--sizes", "4");
        assertThat(guest.exitCode()).isEqualTo(2);
        assertThat(guest.err())
                .startsWith("nqueens: cluster mode needs the broker's login in spring.rabbitmq.username");
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
                    .startsWith("nqueens: cannot reach the broker amqp://127.0.0.1:9/: ")
                    .doesNotContain("s3cret");
            assertRefusedCleanly(result);
        }
        // A worker waits for the broker (nqueens.cluster.startup-wait), saying so once, then gives up.
        NqueensProcess.Result worker = InProcess.runExactly(workingDirectory, Map.of(), "worker");
        assertThat(worker.exitCode()).as(worker.err()).isEqualTo(4);
        assertThat(worker.err())
                .startsWith("nqueens: gave up after 2.00 s waiting for the broker: cannot reach the"
                        + " broker amqp://127.0.0.1:9/: ")
                .doesNotContain("s3cret");
        assertThat(worker.err().lines()).hasSize(1);
        assertThat(worker.out().lines())
                .singleElement()
                .asString()
                .contains(" waiting for the broker: cannot reach the broker amqp://127.0.0.1:9/: ");
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
                assertThat(result.err())
                        .isEqualTo("nqueens: cannot use the database jdbc:nope:x: no JDBC driver here"
                                + " takes this URL (jdbc:h2:file:... or jdbc:postgresql://host:port/database)\n");
            }
            assertRefusedCleanly(result);
        }
    }

    @Test
    void aDatabaseThatCannotBeOpenedGetsExitFour() throws Exception {
        writeConfig("spring:\n  datasource:\n    url: jdbc:postgresql://127.0.0.1:9/nqueens\n");
        NqueensProcess.Result result = InProcess.runExactly(workingDirectory, Map.of(), "show", "8");
        assertThat(result.exitCode()).isEqualTo(4);
        assertThat(result.err()).startsWith("nqueens: cannot use the database jdbc:postgresql://127.0.0.1:9/nqueens: ");
        assertRefusedCleanly(result);
    }

    @Test
    void noDatabaseYetGetsExitFourForEveryReadingCommand() throws Exception {
        for (String[] command : new String[][] {{"show", "8"}, {"sql", "SELECT 1"}, {"history"}, {"verify"}}) {
            NqueensProcess.Result result = nqueens(command);
            assertThat(result.exitCode()).as(result.err()).isEqualTo(4);
            assertThat(result.err())
                    .startsWith("nqueens: the database jdbc:h2:file:")
                    .endsWith(" does not exist yet: `./nqueens run` creates it\n");
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
        assertThat(result.err())
                .startsWith("nqueens: cannot use the database jdbc:postgresql://")
                .contains("no_such_role");
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
