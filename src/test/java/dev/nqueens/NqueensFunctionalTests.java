package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The program as a user runs it: the packaged jar started as a separate process in a fresh
 * working directory, checked by its exit code, what it prints and the files it leaves.
 */
class NqueensFunctionalTests {

    @TempDir
    Path workingDirectory;

    @Test
    void runSolvesStoresAndExportsThenShowPrintsAsTheSeedsDid() throws Exception {
        NqueensProcess.Result run = nqueens("run", "--sizes", "1-8,10");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("   8                   92               12          ALL").contains("Job COMPLETED");
        assertThat(workingDirectory.resolve("data/nqueens.mv.db")).exists();
        assertThat(workingDirectory.resolve("output/manifest.json")).exists();
        assertThat(workingDirectory.resolve("output/solutions-n10.csv")).exists();

        NqueensProcess.Result show = nqueens("show", "8", "--limit", "2", "--boards");
        assertThat(show.exitCode()).isZero();
        assertThat(show.out()).startsWith("No. 1: 1 5 8 6 3 7 2 4" + System.lineSeparator()
                + "Q . . . . . . ." + System.lineSeparator() + ". . . . Q . . .");
        assertThat(show.out()).contains("No. 2: 1 6 8 3 7 4 2 5").doesNotContain("No. 3:")
                .endsWith("n=8: 92 solutions, 12 fundamental" + System.lineSeparator());

        NqueensProcess.Result fundamental = nqueens("show", "8", "--fundamental");
        assertThat(fundamental.out().lines().filter(line -> line.startsWith("No. "))).hasSize(12);
        assertThat(fundamental.out()).contains("No. 10: 3 5 2 8 1 7 4 6  (orbit 4, ROT180)");

        NqueensProcess.Result again = nqueens("run", "--sizes", "8");
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).contains("Every size was already stored; reports exported again.");

        NqueensProcess.Result sql = nqueens("sql", "SELECT COUNT(*) AS solutions FROM solution WHERE n = 8");
        assertThat(sql.exitCode()).isZero();
        assertThat(sql.out()).isEqualTo("solutions\n---------\n92\n(1 row)\n");
        NqueensProcess.Result csv = nqueens("sql", "SELECT ordinal, placement FROM solution WHERE n = 6 ORDER BY ordinal",
                "--format", "csv");
        assertThat(csv.out()).startsWith("ordinal,placement\n1,\"2 4 6 1 3 5\"\n");
        NqueensProcess.Result write = nqueens("sql", "DELETE FROM board_summary");
        assertThat(write.exitCode()).isEqualTo(2);
        assertThat(write.err()).isEqualTo("nqueens: refused: 'delete' is not a read-only statement; allowed are SELECT,"
                + " WITH, VALUES, TABLE, EXPLAIN and SHOW\n");
        NqueensProcess.Result history = nqueens("history", "--format", "csv");
        assertThat(history.out().lines()).hasSize(3).first()
                .isEqualTo("run,started,ended,status,sizes,published,rows_written,seconds");
        assertThat(history.out()).contains(",COMPLETED,8,,0,").contains(",COMPLETED,\"1-8,10\",\"1 2 3 4 5 6 7 8 10\",873,");

        NqueensProcess.Result unsolved = nqueens("show", "9");
        assertThat(unsolved.exitCode()).isEqualTo(1);
        assertThat(unsolved.err()).isEqualTo("nqueens: n=9 has not been solved yet; run: ./nqueens run --sizes 9\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "run --sizes 0        | nqueens: invalid size list '0': 0 is out of range; sizes are whole numbers 1..28",
        "run --sizes -3       | nqueens: invalid size list '-3': -3 is out of range",
        "run --sizes abc      | nqueens: invalid size list 'abc': 'abc' is not a size",
        "run --sizes 12-4     | nqueens: invalid size list '12-4': range 12-4 is descending",
        "run --sizes 1-33     | nqueens: invalid size list '1-33': 33 is out of range",
        "frobnicate           | nqueens: Unmatched argument at index 0: 'frobnicate'",
        "run --fast           | nqueens: Unknown option: '--fast'",
        "run --threads 0      | nqueens: invalid value '0' for --threads",
        "show 0               | nqueens: invalid size list '0'",
        "count 40             | nqueens: invalid size list '40': 40 is out of range",
        "count 0              | nqueens: invalid size list '0': 0 is out of range",
        "count 12 --threads 0 | nqueens: invalid value '0' for --threads",
        "run --store-all-up-to 16 --store-fundamental-up-to 14 | nqueens: storage limit all-up-to=16 is above fundamental-up-to=14",
        "run --store-all-up-to -1 | nqueens: invalid value '-1' for --store-all-up-to: a board size 0..28",
        "run --store-fundamental-up-to 40 | nqueens: invalid value '40' for --store-fundamental-up-to: a board size 0..28",
        "db-server --pg-port 0 | nqueens: invalid value '0' for --pg-port: a TCP port 1..65535",
        "db-server --tcp-port 70000 | nqueens: invalid value '70000' for --tcp-port: a TCP port 1..65535",
        "run --sizes 29       | nqueens: invalid size list '29': the count of n=29 would overflow a 64-bit integer",
        "run --window 5x      | nqueens: invalid value '5x' for --window: a duration such as 5h, 90m or 30s",
        "run --window 0s      | nqueens: invalid value '0s' for --window: the window must be longer than zero",
        "worker --threads 0   | nqueens: invalid value '0' for --threads",
        "worker --fast        | nqueens: Unknown option: '--fast'",
        "worker               | nqueens: cluster mode needs a shared PostgreSQL database, but spring.datasource.url is jdbc:h2:file:./data/nqueens",
        "cluster              | nqueens: cluster mode needs a shared PostgreSQL database"})
    void badArgumentsGetOneLineExitTwoAndWriteNothing(String args, String message) throws Exception {
        NqueensProcess.Result result = nqueens(args.split(" "));
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith(message).endsWith("\n");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    @Test
    void anOutputFolderThatIsAFileIsRefusedBeforeAnythingIsWritten() throws Exception {
        Files.writeString(workingDirectory.resolve("reports"), "not a folder");
        writeConfig("nqueens:\n  output-dir: reports\n");
        NqueensProcess.Result result = nqueens("run", "--sizes", "4");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("nqueens: output folder reports is a file, not a folder\n");
        assertThat(workingDirectory.resolve("data")).doesNotExist();
    }

    @Test
    void anOutputFolderThatCannotBeCreatedIsRefused() throws Exception {
        Files.writeString(workingDirectory.resolve("blocker"), "a file where a folder must go");
        writeConfig("nqueens:\n  output-dir: blocker/output\n");
        NqueensProcess.Result result = nqueens("run", "--sizes", "4");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("nqueens: output folder blocker/output is not writable");
        assertThat(result.err().lines()).hasSize(1);
        assertThat(workingDirectory.resolve("data")).doesNotExist();
    }

    @Test
    void aBadSizeListInTheConfigurationIsRefused() throws Exception {
        writeConfig("nqueens:\n  sizes: 5-2\n");
        NqueensProcess.Result result = nqueens("run");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("nqueens: setting nqueens.sizes: invalid size list '5-2': range 5-2 is"
                + " descending; sizes are whole numbers 1..28, as a list and/or ascending ranges such as 1-12 or"
                + " 4,8,10-12\n");
        assertNothingWritten();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "malformed YAML  | 'nqueens:\n  sizes: [1-3\n' | nqueens: cannot read the configuration:",
        "unknown key     | 'nqueens:\n  sizez: 1-3\n'  | nqueens: unknown setting 'nqueens.sizez' in config/application.yml",
        "bad value       | 'nqueens:\n  threads: many\n' | nqueens: invalid setting nqueens.threads='many'",
        "negative limit  | 'nqueens:\n  storage:\n    all-up-to: -2\n' | nqueens: setting nqueens.storage: storage limit all-up-to=-2 is outside 0..28",
        "limits crossed  | 'nqueens:\n  storage:\n    all-up-to: 15\n    fundamental-up-to: 14\n' | nqueens: setting nqueens.storage: storage limit all-up-to=15 is above fundamental-up-to=14"})
    void badConfigurationGetsOneLineExitTwoAndWritesNothing(String name, String yaml, String message) throws Exception {
        writeConfig(yaml.replace("\\n", "\n"));
        NqueensProcess.Result result = nqueens("run", "--sizes", "4");
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).startsWith(message);
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    @Test
    void scheduleRunsTheJobOnItsCronOneInstancePerRunAndStopsOnSigterm() throws Exception {
        writeConfig("nqueens:\n  sizes: 1-6\n  schedule:\n    cron: \"*/2 * * * * *\"\n");
        NqueensProcess schedule = NqueensProcess.start(workingDirectory, "schedule");
        schedule.awaitLine(line -> line.contains("schedule '*/2 * * * * *' started"), java.time.Duration.ofMinutes(1));
        java.util.concurrent.atomic.AtomicInteger completed = new java.util.concurrent.atomic.AtomicInteger();
        schedule.awaitLine(line -> line.contains("ended COMPLETED") && completed.incrementAndGet() == 2,
                java.time.Duration.ofMinutes(1));
        NqueensProcess.Result stopped = schedule.terminate();
        assertThat(stopped.exitCode()).isEqualTo(143);
        assertThat(stopped.out()).contains("schedule stopped");

        NqueensProcess.Result instances = nqueens("sql",
                "SELECT COUNT(DISTINCT job_instance_id) AS instances FROM batch_job_execution");
        assertThat(Integer.parseInt(instances.out().lines().skip(2).findFirst().orElseThrow().trim()))
                .isGreaterThanOrEqualTo(2);
        NqueensProcess.Result history = nqueens("history");
        assertThat(history.out().lines().filter(line -> line.contains("COMPLETED"))).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void aBadCronExpressionIsRefused() throws Exception {
        writeConfig("nqueens:\n  schedule:\n    cron: \"61 * * * *\"\n");
        NqueensProcess.Result result = nqueens("schedule");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("nqueens: setting nqueens.schedule.cron: invalid cron expression '61 * * * *'");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    @Test
    void clusterModeOnTheEmbeddedDatabaseOrWithoutABrokerLoginIsRefused() throws Exception {
        writeConfig("nqueens:\n  cluster:\n    enabled: true\n");
        NqueensProcess.Result onH2 = nqueens("run", "--sizes", "4");
        assertThat(onH2.exitCode()).isEqualTo(2);
        assertThat(onH2.err()).isEqualTo("nqueens: cluster mode needs a shared PostgreSQL database, but"
                + " spring.datasource.url is jdbc:h2:file:./data/nqueens (workers on other machines cannot share it)\n");
        writeConfig("nqueens:\n  cluster:\n    enabled: true\nspring:\n  datasource:\n"
                + "    url: jdbc:postgresql://127.0.0.1:9/nqueens\n");
        NqueensProcess.Result guest = nqueens("run", "--sizes", "4");
        assertThat(guest.exitCode()).isEqualTo(2);
        assertThat(guest.err()).startsWith("nqueens: cluster mode needs the broker's login in spring.rabbitmq.username");
        assertNothingWritten();
    }

    @Test
    void anUnreachableBrokerGetsExitFourBeforeAnythingIsTouched() throws Exception {
        writeConfig("nqueens:\n  cluster:\n    enabled: true\nspring:\n  datasource:\n"
                + "    url: jdbc:postgresql://127.0.0.1:9/nqueens\n  rabbitmq:\n    host: 127.0.0.1\n    port: 9\n"
                + "    username: nqueens\n    password: s3cret\n");
        for (String[] command : new String[][] {{"run", "--sizes", "4"}, {"worker"}}) {
            NqueensProcess.Result result = nqueens(command);
            assertThat(result.exitCode()).as(result.err()).isEqualTo(4);
            assertThat(result.err()).startsWith("nqueens: cannot reach the broker amqp://127.0.0.1:9/: ")
                    .doesNotContain("s3cret");
            assertThat(result.err().lines()).hasSize(1);
        }
        assertNothingWritten();
    }

    @Test
    void aMalformedDatabaseUrlGetsExitFour() throws Exception {
        NqueensProcess.Result result = NqueensProcess.run(workingDirectory,
                java.util.Map.of("SPRING_DATASOURCE_URL", "jdbc:nope:x"), "show", "8");
        assertThat(result.exitCode()).isEqualTo(4);
        assertThat(result.err()).isEqualTo("nqueens: cannot use the database jdbc:nope:x: no JDBC driver here takes"
                + " this URL (jdbc:h2:file:... or jdbc:postgresql://host:port/database)\n");
        assertNothingWritten();
    }

    @Test
    void aDatabaseThatCannotBeOpenedGetsExitFour() throws Exception {
        writeConfig("spring:\n  datasource:\n    url: jdbc:postgresql://127.0.0.1:9/nqueens\n");
        NqueensProcess.Result result = nqueens("show", "8");
        assertThat(result.exitCode()).isEqualTo(4);
        assertThat(result.err()).startsWith("nqueens: cannot use the database jdbc:postgresql://127.0.0.1:9/nqueens: ");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    @Test
    @org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable(named = TestDatabases.POSTGRES_URL_VARIABLE,
            matches = ".+", disabledReason = TestDatabases.POSTGRES_SKIPPED)
    void wrongPostgresCredentialsGetExitFour() throws Exception {
        java.util.Map<String, String> environment = new java.util.HashMap<>(
                TestDatabases.postgresEnvironment("nqueens_credentials_ft"));
        // The test server's URL may carry its own user=…; the role must be wrong wherever it is given.
        environment.put("SPRING_DATASOURCE_URL", environment.get("SPRING_DATASOURCE_URL")
                .replaceAll("([?&])user=[^&]*", "$1user=no_such_role"));
        environment.put("SPRING_DATASOURCE_USERNAME", "no_such_role");
        NqueensProcess.Result result = NqueensProcess.run(workingDirectory, environment, "show", "8");
        assertThat(result.exitCode()).isEqualTo(4);
        assertThat(result.err()).startsWith("nqueens: cannot use the database jdbc:postgresql://")
                .contains("no_such_role");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    private void writeConfig(String yaml) throws IOException {
        Files.createDirectories(workingDirectory.resolve("config"));
        Files.writeString(workingDirectory.resolve("config/application.yml"), yaml);
    }

    private void assertNothingWritten() throws IOException {
        try (Stream<Path> files = Files.list(workingDirectory)) {
            assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("data", "output");
        }
    }

    private NqueensProcess.Result nqueens(String... args) throws IOException, InterruptedException {
        return NqueensProcess.run(workingDirectory, args);
    }
}
