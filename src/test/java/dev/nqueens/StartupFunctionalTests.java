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
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a command does not need, it does not start: each command run through the launcher, with
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
        database = Map.of("SPRING_DATASOURCE_URL", TestDatabases.h2Url(work.resolve("data/nqueens"))
                + ";DB_CLOSE_ON_EXIT=FALSE", "NQUEENS_OUTPUT_DIR", work.resolve("output").toString());
        NqueensProcess.Result run = InProcess.run(work, database, "run", "--sizes", "1-8");
        assertThat(run.exitCode()).as(run.err()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "show 8 --limit 1             | " + H2,
        "sql 'SELECT COUNT(*) FROM board_summary' | " + H2,
        "history                      | " + H2,
        "verify                       | " + H2,
        "--help                       | picocli.",
        "run --help                   | picocli.",
        "count 8                      | dev.nqueens.count.",
        "run --sizes 1-8              | " + H2})
    void aCommandWithoutTheJobOrTheWebStartsNoneOfTheirMachinery(String line, String needed) throws Exception {
        List<String> loaded = classesLoadedBy(line);
        assertThat(loaded).as("what it needs").anyMatch(name -> name.startsWith(needed));
        assertThat(loaded).as("what it does not need").noneMatch(name -> name.equals(CONTEXT)
                || name.startsWith(BATCH_STEPS) || name.startsWith(BATCH_OPERATOR) || name.startsWith(FLYWAY)
                || name.startsWith(TOMCAT) || name.startsWith(SPRING_AMQP) || name.startsWith(RABBIT_CLIENT));
        if (line.startsWith("count") || line.startsWith("--help") || line.contains("--help")) {
            assertThat(loaded).as("no settings, no database").noneMatch(name -> name.startsWith(BOOT_CONFIG)
                    || name.startsWith(H2));
        }
    }

    @Test
    void aRunWithWorkStartsTheJobsMachineryAndNoWebServer() throws Exception {
        List<String> loaded = classesLoadedBy("run --sizes 9");
        assertThat(loaded).anyMatch(name -> name.startsWith(BATCH_STEPS)).anyMatch(name -> name.equals(CONTEXT))
                .noneMatch(name -> name.startsWith(TOMCAT) || name.startsWith(SPRING_AMQP));
    }

    /**
     * schedule hands over to the job's JVM with the heap its configured sizes need (as worker does).
     * The launcher remembers that answer under what the settings come from: a restart with nothing
     * changed starts one JVM, not two, with the same heap; a changed configuration file asks the quick
     * JVM again; a setting from a file the launcher does not look at (one the configuration imports)
     * is caught by the job's JVM, which says so, and the next start asks again.
     */
    @Test
    void scheduleRestartedWithNothingChangedStartsOneJvmAndAChangedSettingAsksAgain() throws Exception {
        Path folder = Files.createDirectories(work.resolve("schedule-again"));
        Path logs = Files.createDirectories(folder.resolve("classes"));
        Files.createDirectories(folder.resolve("config"));
        // A schedule that runs the job on New Year's night only: none during the test.
        String config = "nqueens:\n  schedule:\n    cron: '0 0 1 1 *'\n  threads: 1\nspring:\n  config:\n"
                + "    import: optional:file:./imported.yml\n";
        Files.writeString(folder.resolve("config/application.yml"), config + "  # sizes in imported.yml\n");
        Files.writeString(folder.resolve("imported.yml"), "nqueens.sizes: 1-8\n");
        Map<String, String> environment = environment(logs);

        Started first = start(folder, environment, logs, "schedule");
        assertThat(first.jvms()).as("a quick look, then the job's JVM").isEqualTo(2);
        Started again = start(folder, environment, logs, "schedule");
        assertThat(again.jvms()).as("the remembered answer: the job's JVM alone").isEqualTo(1);
        assertThat(again.heapMegabytes()).isEqualTo(first.heapMegabytes());
        assertThat(again.err()).isEmpty();
        assertThat(again.launcherGaveTheQuickCompiler()).as("its nights need the optimizing compiler").isFalse();

        // Size 21 is counted: the engine's tables need more heap. The launcher does not read imported.yml.
        Files.writeString(folder.resolve("imported.yml"), "nqueens.sizes: 1-8,21\n");
        Started stale = start(folder, environment, logs, "schedule");
        assertThat(stale.jvms()).isEqualTo(1);
        assertThat(stale.heapMegabytes()).isEqualTo(first.heapMegabytes());
        assertThat(stale.err()).contains("remembered from an earlier start, but its settings need -Xmx")
                .contains("the next start asks again");
        Started asked = start(folder, environment, logs, "schedule");
        assertThat(asked.jvms()).as("asked again").isEqualTo(2);
        assertThat(asked.heapMegabytes()).isGreaterThan(first.heapMegabytes() + 64);
        assertThat(asked.err()).isEmpty();

        // A new configuration file: the quick JVM asks again.
        Files.writeString(folder.resolve("config/application-default.yml"), "nqueens.threads: 2\n");
        Started changed = start(folder, environment, logs, "schedule");
        assertThat(changed.jvms()).as("a changed configuration file").isEqualTo(2);
        assertThat(start(folder, environment, logs, "schedule").jvms()).isEqualTo(1);
    }

    /**
     * serve runs its nights in its own JVM, as schedule does: the launcher gives it the heap its
     * sizes need (size 21 counted: more than the base heap), remembered after the first start, the
     * optimizing compiler, and the options that hand the heap back after a night; the web server
     * starts in that one JVM, the job's beans when its first night needs them.
     */
    @Test
    void serveRunsItsNightsInItsOwnJvmWithTheHeapItsSizesNeed() throws Exception {
        Path folder = Files.createDirectories(work.resolve("serve-nights"));
        Path logs = Files.createDirectories(folder.resolve("classes"));
        Files.createDirectories(folder.resolve("config"));
        Files.writeString(folder.resolve("config/application.yml"),
                "nqueens:\n  sizes: 1-8,21\n  schedule:\n    cron: '0 0 1 1 *'\n  threads: 1\n");
        Map<String, String> environment = environment(logs);
        Started first = start(folder, environment, logs, "serve");
        assertThat(first.jvms()).as("a quick look, then serve's JVM").isEqualTo(2);
        Started again = start(folder, environment, logs, "serve");
        assertThat(again.jvms()).as("the remembered answer (on another port): serve's JVM alone").isEqualTo(1);
        assertThat(again.heapMegabytes()).isEqualTo(first.heapMegabytes()).isGreaterThan(256 + 64);
        assertThat(again.launcherGaveTheQuickCompiler()).isFalse();
        assertThat(again.jvmOptions()).contains("-Xms32m");
        assertThat(again.err()).isEmpty();
        List<String> loaded = Files.readAllLines(logs.resolve(again.pid() + ".log"));
        assertThat(loaded).as("the web server").anyMatch(entry -> entry.contains(" " + TOMCAT));
    }

    /**
     * run hands over as schedule does, with the heap its sizes need from scratch, which follows from
     * the settings and the command line alone: remembered, so that a run repeated with nothing
     * changed starts one JVM; that JVM takes the quick one's decisions itself, and a run with
     * nothing left to compute ends there without the job's machinery.
     */
    @Test
    void aRunRepeatedWithNothingChangedStartsOneJvm() throws Exception {
        Path folder = Files.createDirectories(work.resolve("run-again"));
        Path logs = Files.createDirectories(folder.resolve("classes"));
        Map<String, String> environment = Map.of("NQUEENS_JAVA_OPTS", NqueensProcess.QUICK_COMPILER
                + " -Xlog:class+load=info:file=" + logs.resolve("%p.log"));

        assertThat(jvmsOf(folder, environment, logs, "run", "--sizes", "1-6")).as("a quick look, then the job's JVM")
                .hasSize(2);
        List<List<String>> again = jvmsOf(folder, environment, logs, "run", "--sizes", "1-6");
        assertThat(again).as("the remembered answer: one JVM").hasSize(1);
        assertThat(again.get(0)).as("nothing to compute: no job").noneMatch(name -> name.equals(CONTEXT)
                || name.startsWith(BATCH_STEPS) || name.startsWith(FLYWAY));

        assertThat(jvmsOf(folder, environment, logs, "run", "--sizes", "1-6", "--force")).as("another command line")
                .hasSize(2);
        List<List<String>> forced = jvmsOf(folder, environment, logs, "run", "--sizes", "1-6", "--force");
        assertThat(forced).as("the remembered answer: one JVM").hasSize(1);
        assertThat(forced.get(0)).as("the job, in that JVM").anyMatch(name -> name.startsWith(BATCH_STEPS));
    }

    /** Runs a command line to its end; the class lists of the JVMs it started, one a JVM. */
    private static List<List<String>> jvmsOf(Path folder, Map<String, String> environment, Path logs, String... args)
            throws Exception {
        Set<Path> before;
        try (var files = Files.list(logs)) {
            before = files.collect(Collectors.toSet());
        }
        NqueensProcess.Result result = NqueensProcess.start(folder, environment, args).waitFor(Duration.ofMinutes(2));
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).isEmpty();
        List<List<String>> jvms = new ArrayList<>();
        try (var files = Files.list(logs)) {
            for (Path file : files.filter(file -> !before.contains(file)).toList()) {
                jvms.add(classNames(file));
            }
        }
        return jvms;
    }

    private static List<String> classNames(Path log) throws IOException {
        return Files.readAllLines(log).stream().map(entry -> entry.replaceFirst("^(\\[[^]]*\\])+ ", ""))
                .map(entry -> entry.split(" ", 2)[0]).toList();
    }

    /** The database, and each JVM's class list in a file of its own under {@code logs} (counts the JVMs). */
    private static Map<String, String> environment(Path logs) {
        Map<String, String> environment = new HashMap<>(database);
        // The quick compiler, as in the other tests, after the launcher's options: a JVM the launcher
        // gives the quick compiler itself has it twice on its command line.
        environment.put("NQUEENS_JAVA_OPTS", NqueensProcess.QUICK_COMPILER + " -Xlog:class+load=info:file="
                + logs.resolve("%p.log"));
        return environment;
    }

    /** One start of serve or schedule: how many JVMs it took, its JVM's command line, what it printed on stderr. */
    private record Started(int jvms, long pid, List<String> jvmOptions, String err) {

        /** The quick compiler from the launcher's options, besides the test's own (NQUEENS_JAVA_OPTS). */
        boolean launcherGaveTheQuickCompiler() {
            return jvmOptions.stream().filter(NqueensProcess.QUICK_COMPILER::equals).count() == 2;
        }

        /** The maximum heap the launcher gave it (the last -Xmx on its command line), in MB. */
        long heapMegabytes() {
            String heap = jvmOptions.stream().filter(option -> option.startsWith("-Xmx")).reduce((a, b) -> b)
                    .orElseThrow();
            assertThat(heap).endsWith("m");
            return Long.parseLong(heap.substring(4, heap.length() - 1));
        }
    }

    /** Starts serve (on a free port, SERVER_PORT) or schedule, waits until it has started, and stops it. */
    private static Started start(Path folder, Map<String, String> settings, Path logs, String command)
            throws Exception {
        int port = ServedResults.freePort();
        long before;
        try (var files = Files.list(logs)) {
            before = files.count();
        }
        // serve on a port of its own each time: the port does not change the heap, nor the answer remembered.
        NqueensProcess started = command.equals("serve")
                ? NqueensProcess.start(folder, settings, command, "--port", String.valueOf(port))
                : NqueensProcess.start(folder, settings, command);
        List<String> options;
        try {
            started.awaitLine(line -> command.equals("serve") ? line.startsWith("Serving http://127.0.0.1:" + port + "/")
                    : line.contains(" schedule '") && line.contains("' started"), Duration.ofMinutes(2));
            // The launcher's process, which became the JVM (exec).
            options = List.of(Files.readString(Path.of("/proc", String.valueOf(started.pid()), "cmdline")).split("\0"));
        } catch (Exception | AssertionError e) {
            started.kill();
            throw e;
        }
        NqueensProcess.Result stopped = started.terminate();
        assertThat(stopped.out()).as(stopped.err()).contains(command.equals("serve") ? "serve stopped." : "schedule stopped");
        try (var files = Files.list(logs)) {
            return new Started((int) (files.count() - before), started.pid(), options, stopped.err());
        }
    }

    /** The classes the JVM(s) of one command line loaded, from {@code -Xlog:class+load}. */
    private static List<String> classesLoadedBy(String line) throws IOException, InterruptedException {
        Path logs = Files.createTempDirectory(work, "classes");
        Map<String, String> environment = new HashMap<>(database);
        // One file per JVM: a run may start two (a quick look, then the job's).
        environment.put("NQUEENS_JAVA_OPTS", "-Xlog:class+load=info:file=" + logs.resolve("%p.log"));
        NqueensProcess.Result result = NqueensProcess.start(work, environment, split(line)).waitFor(Duration.ofMinutes(2));
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
        java.util.regex.Matcher word = java.util.regex.Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
        while (word.find()) {
            words.add(word.group(1) != null ? word.group(1) : word.group(2));
        }
        return words.toArray(String[]::new);
    }
}
