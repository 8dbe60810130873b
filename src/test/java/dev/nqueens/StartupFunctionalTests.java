package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
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

    /** The classes the JVM(s) of one command line loaded, from {@code -Xlog:class+load}. */
    private static List<String> classesLoadedBy(String line) throws IOException, InterruptedException {
        Path logs = Files.createTempDirectory(work, "classes");
        Map<String, String> environment = new HashMap<>(database);
        // One file per JVM: a run may start two (a quick look, then the job's).
        environment.put("NQUEENS_JAVA_OPTS", "-Xlog:class+load=info:file=" + logs.resolve("%p.log"));
        NqueensProcess.Result result = NqueensProcess.start(work, environment, split(line)).waitFor(Duration.ofMinutes(2));
        assertThat(result.exitCode()).as(result.err()).isZero();
        List<String> classes = new java.util.ArrayList<>();
        try (var files = Files.list(logs)) {
            for (Path file : files.toList()) {
                Files.readAllLines(file).stream().map(entry -> entry.replaceFirst("^(\\[[^]]*\\])+ ", ""))
                        .map(entry -> entry.split(" ", 2)[0]).forEach(classes::add);
            }
        }
        assertThat(classes).as("the class lists").isNotEmpty();
        return classes;
    }

    private static String[] split(String line) {
        List<String> words = new java.util.ArrayList<>();
        java.util.regex.Matcher word = java.util.regex.Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
        while (word.find()) {
            words.add(word.group(1) != null ? word.group(1) : word.group(2));
        }
        return words.toArray(String[]::new);
    }
}
