package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One JVM per command, started by the launcher with the options docs/development.md names, and
 * what a command does not need, it does not start: each command run through the launcher, with
 * the JVM listing every class it loads, and the list checked for the machinery the command has no
 * use for — an application context, Spring Batch's steps and operator, Flyway, the web server, the
 * broker's client. (An application context looks at which libraries are there, loading a class of
 * each: what counts for one is the class that does the work, e.g. the embedded Tomcat or an AMQP
 * connection.)
 */
@Order(Integer.MAX_VALUE - 3) // middling: fourth from the back, so the last classes to start are short (see the pom)
@ResourceLock(TestResources.TEST_JVM)
class StartupFunctionalTests {

    private static final String CONTEXT = "org.springframework.context.support.AbstractApplicationContext";
    private static final String BATCH_STEPS = "org.springframework.batch.core.step.tasklet.";
    private static final String BATCH_OPERATOR = "org.springframework.batch.core.launch.support.";
    private static final String FLYWAY = "org.flywaydb.core.internal.";
    private static final String TOMCAT = "org.apache.catalina.startup.Tomcat";
    private static final String SPRING_AMQP = "org.springframework.amqp.rabbit.connection.CachingConnectionFactory";
    private static final String RABBIT_CLIENT = "com.rabbitmq.client.impl.";
    private static final String BOOT_CONFIG = "org.springframework.boot.context.config.";
    private static final String H2 = "org.h2.engine.";

    @TempDir
    static Path work;

    private static Map<String, String> database;

    @BeforeAll
    static void aDatabaseOfSmallSizes() {
        database = Map.of(
                "SPRING_DATASOURCE_URL",
                TestDatabases.h2Url(work.resolve("data/nqueens")) + ";DB_CLOSE_ON_EXIT=FALSE",
                "NQUEENS_OUTPUT_DIR",
                work.resolve("output").toString());
        NqueensProcess.Result run = InProcess.run(work, database, "run", "--sizes", "1-8");
        assertThat(run.exitCode()).as(run.err()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "show 8 --limit 1             | " + H2,
                "sql 'SELECT COUNT(*) FROM board_summary' | " + H2,
                "history                      | " + H2,
                "verify                       | " + H2,
                "--help                       | picocli.",
                "run --help                   | picocli.",
                "count 8                      | dev.nqueens.count."
            })
    void aCommandWithoutTheJobOrTheWebStartsNoneOfTheirMachinery(String line, String needed) throws Exception {
        List<String> loaded = classesLoadedBy(line);
        assertThat(loaded).as("what it needs").anyMatch(name -> name.startsWith(needed));
        assertThat(loaded)
                .as("what it does not need")
                .noneMatch(name -> name.equals(CONTEXT)
                        || name.startsWith(BATCH_STEPS)
                        || name.startsWith(BATCH_OPERATOR)
                        || name.startsWith(FLYWAY)
                        || name.startsWith(TOMCAT)
                        || name.startsWith(SPRING_AMQP)
                        || name.startsWith(RABBIT_CLIENT));
        if (line.startsWith("count") || line.startsWith("--help") || line.contains("--help")) {
            assertThat(loaded)
                    .as("no settings, no database")
                    .noneMatch(name -> name.startsWith(BOOT_CONFIG) || name.startsWith(H2));
        }
    }

    @Test
    void aRunWithWorkStartsTheJobsMachineryAndNoWebServer() throws Exception {
        List<String> loaded = classesLoadedBy("run --sizes 9");
        assertThat(loaded)
                .anyMatch(name -> name.startsWith(BATCH_STEPS))
                .anyMatch(name -> name.equals(CONTEXT))
                .noneMatch(name -> name.startsWith(TOMCAT) || name.startsWith(SPRING_AMQP));
    }

    /** A run with nothing to compute is the job too, in the one JVM of the command. */
    @Test
    void aRunWithNothingToComputeGoesThroughTheJobInOneJvm() throws Exception {
        Path logs = Files.createTempDirectory(work, "classes");
        Map<String, String> environment = new HashMap<>(database);
        environment.put("NQUEENS_JAVA_OPTS", "-Xlog:class+load=info:file=" + logs.resolve("%p.log"));
        NqueensProcess.Result rerun =
                NqueensProcess.start(work, environment, "run", "--sizes", "1-8").waitFor(Duration.ofMinutes(2));
        assertThat(rerun.exitCode()).as(rerun.err()).isZero();
        assertThat(rerun.out()).contains("already stored");
        try (var files = Files.list(logs)) {
            List<Path> jvms = files.toList();
            assertThat(jvms).as("one JVM").hasSize(1);
            assertThat(classNames(jvms.get(0))).anyMatch(name -> name.startsWith(BATCH_STEPS));
        }
    }

    /**
     * The launcher starts one JVM with a fixed set of options: the heap a share of the machine's
     * memory; serve and schedule, which wait between nights, with G1 and its periodic collection,
     * the commands that end with the serial collector.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"serve, -XX:+UseG1GC", "schedule, -XX:+UseG1GC"})
    void serveAndScheduleWaitWithACollectorThatGivesTheHeapBack(String command, String collector) throws Exception {
        Path folder = Files.createDirectories(work.resolve(command + "-jvm"));
        Files.createDirectories(folder.resolve("config"));
        // A schedule that runs the job on New Year's night only: none during the test.
        Files.writeString(
                folder.resolve("config/application.yml"),
                "nqueens:\n  sizes: 1-8\n  schedule:\n    cron: '0 0 1 1 *'\n");
        Started started = start(folder, new HashMap<>(database), command);
        assertThat(started.jvmOptions())
                .contains(collector, "-XX:MaxRAMPercentage=75")
                .anyMatch(option -> option.startsWith("-XX:G1PeriodicGCInterval="));
        assertThat(started.err()).isEmpty();
    }

    @Test
    void aCommandThatEndsUsesTheSerialCollector() throws Exception {
        NqueensProcess.Result result = NqueensProcess.start(
                        work, Map.of("NQUEENS_JAVA_OPTS", "-XX:+PrintCommandLineFlags"), "--version")
                .waitFor(Duration.ofMinutes(1));
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("-XX:+UseSerialGC", "-XX:MaxRAMPercentage=75");
    }

    /** A size that cannot fit in the heap is refused before anything of it is written. */
    @Test
    void aSizeThatCannotFitInTheHeapIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path folder = Files.createDirectories(work.resolve("small-heap"));
        NqueensProcess.Result first = NqueensProcess.run(folder, "run", "--sizes", "1-4");
        assertThat(first.exitCode()).as(first.err()).isZero();
        String before = ServedResults.contents(folder);

        NqueensProcess.Result refused = NqueensProcess.start(
                        folder, Map.of("NQUEENS_JAVA_OPTS", "-Xmx100m"), "run", "--sizes", "5")
                .waitFor(Duration.ofMinutes(2));
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().lines()).hasSize(1).first().asString().contains("n=5", "NQUEENS_JAVA_OPTS=-Xmx");
        assertThat(ServedResults.contents(folder)).isEqualTo(before);
    }

    private static List<String> classNames(Path log) throws IOException {
        return Files.readAllLines(log).stream()
                .map(entry -> entry.replaceFirst("^(\\[[^]]*\\])+ ", ""))
                .map(entry -> entry.split(" ", 2)[0])
                .toList();
    }

    /** One start of serve or schedule: its JVM's command line, what it printed on stderr. */
    private record Started(List<String> jvmOptions, String err) {}

    /** Starts serve (on a free port, SERVER_PORT) or schedule, waits until it has started, and stops it. */
    private static Started start(Path folder, Map<String, String> settings, String command) throws Exception {
        int port = ServedResults.freePort();
        NqueensProcess started = command.equals("serve")
                ? NqueensProcess.start(folder, settings, command, "--port", String.valueOf(port))
                : NqueensProcess.start(folder, settings, command);
        List<String> options;
        try {
            started.awaitLine(
                    line -> command.equals("serve")
                            ? line.startsWith("Serving http://127.0.0.1:" + port + "/")
                            : line.contains(" schedule '") && line.contains("' started"),
                    Duration.ofMinutes(2));
            // The launcher's process, which became the JVM (exec).
            options = List.of(Files.readString(Path.of("/proc", String.valueOf(started.pid()), "cmdline"))
                    .split("\0"));
        } catch (Exception | AssertionError e) {
            started.kill();
            throw e;
        }
        NqueensProcess.Result stopped = started.terminate();
        assertThat(stopped.out())
                .as(stopped.err())
                .contains(command.equals("serve") ? "serve stopped." : "schedule stopped");
        return new Started(options, stopped.err());
    }

    /** The classes the JVM(s) of one command line loaded, from {@code -Xlog:class+load}. */
    private static List<String> classesLoadedBy(String line) throws IOException, InterruptedException {
        Path logs = Files.createTempDirectory(work, "classes");
        Map<String, String> environment = new HashMap<>(database);
        environment.put("NQUEENS_JAVA_OPTS", "-Xlog:class+load=info:file=" + logs.resolve("%p.log"));
        NqueensProcess.Result result =
                NqueensProcess.start(work, environment, split(line)).waitFor(Duration.ofMinutes(2));
        assertThat(result.exitCode()).as(result.err()).isZero();
        List<String> classes = new ArrayList<>();
        try (var files = Files.list(logs)) {
            for (Path file : files.toList()) {
                classes.addAll(classNames(file));
            }
        }
        assertThat(classes).as("the class lists").isNotEmpty();
        return classes;
    }

    private static String[] split(String line) {
        List<String> words = new ArrayList<>();
        java.util.regex.Matcher word =
                java.util.regex.Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
        while (word.find()) {
            words.add(word.group(1) != null ? word.group(1) : word.group(2));
        }
        return words.toArray(String[]::new);
    }
}
