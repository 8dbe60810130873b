package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.Application;
import dev.nqueens.InProcess;
import dev.nqueens.NqueensProcess;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.SettingsLoader;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The commands as a user runs them, in this JVM (the jar's entry point, a working directory and
 * environment of their own): one database of sizes 1-10 shared by the reading commands, whose
 * output is checked line by line. No test changes that database (a test that writes settings
 * removes them), so the tests run in any order.
 */
@ResourceLock(TestResources.TEST_JVM)
class CommandsIntegrationTests {

    @TempDir
    static Path work;

    @BeforeAll
    static void solveOneToTen() {
        NqueensProcess.Result run = InProcess.run(work, "run", "--sizes", "1-10");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("   8                   92               12          ALL")
                .contains("  10                  724               92          ALL")
                .contains("Job COMPLETED in ");
    }

    @Test
    void showPrintsNumberedSolutionsAsTheSeedsDidWithGroupedTotals() {
        NqueensProcess.Result show = nqueens("show", "8", "--limit", "2", "--boards");
        assertThat(show.exitCode()).isZero();
        assertThat(show.err()).isEmpty();
        assertThat(show.out())
                .startsWith("No. 1: 1 5 8 6 3 7 2 4" + System.lineSeparator() + "Q . . . . . . .")
                .contains("No. 2: 1 6 8 3 7 4 2 5")
                .doesNotContain("No. 3:")
                .endsWith("n=8: 92 solutions, 12 fundamental" + System.lineSeparator());
        assertThat(nqueens("show", "10", "--limit", "1").out()).endsWith("n=10: 724 solutions, 92 fundamental\n");
    }

    @Test
    void sqlNamesASyntaxErrorWithItsPositionAndPrintsNothingElse() {
        // Each: the statement, then what the line names (the position, the word at fault).
        for (String[] statement :
                new String[][] {{"SELEC 1", "position 1", "'SELEC'"}, {"SELECT * FROM WHERE n = 8", "position 15"}}) {
            NqueensProcess.Result result = nqueens("sql", statement[0]);
            assertThat(result.exitCode()).isEqualTo(2);
            assertThat(result.out()).isEmpty();
            assertThat(result.err())
                    .startsWith("nqueens: ")
                    .contains(Arrays.copyOfRange(statement, 1, statement.length))
                    .doesNotEndWith("SQL statement:\n");
            assertThat(result.err().lines()).hasSize(1);
        }
    }

    /** A ';' in a literal, a quoted name or a comment ends no statement; a second statement is refused whole. */
    @Test
    void sqlTakesSemicolonsInLiteralsNamesAndCommentsButOneStatementOnly() {
        NqueensProcess.Result literal = nqueens("sql", "SELECT 'a;b' AS x;", "--format", "csv"); // docs/sql.md
        assertThat(literal.exitCode()).as(literal.err()).isZero();
        assertThat(literal.out()).isEqualTo("x\na;b\n");
        NqueensProcess.Result named = nqueens(
                "sql", "SELECT n AS \"n;m\" FROM board_summary WHERE n = 8 -- the eight;\n;", "--format", "csv");
        assertThat(named.exitCode()).as(named.err()).isZero();
        assertThat(named.out()).isEqualTo("n;m\n8\n");
        for (String chain : new String[] {
            "SELECT 1; DELETE FROM board_summary",
            "SELECT 'a;b'; DROP TABLE board_summary",
            "EXPLAIN ANALYZE DELETE FROM board_summary"
        }) {
            NqueensProcess.Result refused = nqueens("sql", chain);
            assertThat(refused.exitCode()).as(chain).isEqualTo(2);
            assertThat(refused.err()).startsWith("nqueens: refused: ");
            assertThat(refused.err().lines()).hasSize(1);
            assertThat(refused.out()).isEmpty();
        }
        assertThat(nqueens("sql", "SELECT COUNT(*) AS sizes FROM board_summary", "--format", "csv")
                        .out())
                .isEqualTo("sizes\n10\n");
    }

    @Test
    void historyPrintsTimesInUtc() {
        NqueensProcess.Result history = nqueens("history", "--format", "csv");
        assertThat(history.exitCode()).isZero();
        assertThat(history.out().lines().skip(1).findFirst().orElseThrow())
                .matches(
                        "1,\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ,\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ,COMPLETED,1-10,"
                                + "\"1 2 3 4 5 6 7 8 9 10\",1225,\\d+\\.\\d,");
    }

    @Test
    void whileDbServerHoldsTheFileTheReadingCommandsReadThroughIt() throws Exception {
        NqueensProcess server = NqueensProcess.start(
                work,
                Map.of(
                        "SPRING_DATASOURCE_URL",
                        TestDatabases.h2Url(work.resolve("data/nqueens")) + ";DB_CLOSE_ON_EXIT=FALSE"),
                "db-server",
                "--pg-port",
                Integer.toString(freePort()),
                "--tcp-port",
                Integer.toString(freePort()));
        try {
            server.awaitLine(line -> line.contains("psql \"host="), Duration.ofMinutes(2));
            assertThat(work.resolve("data/nqueens.holder")).exists();
            NqueensProcess.Result sql = nqueens("sql", "SELECT total_solutions FROM board_summary WHERE n = 8");
            assertThat(sql.exitCode()).as(sql.err()).isZero();
            assertThat(sql.out()).isEqualTo("total_solutions\n---------------\n92\n(1 row)\n");
            assertThat(nqueens("show", "6").out()).contains("No. 1: 2 4 6 1 3 5");
            assertThat(nqueens("history").exitCode()).isZero();
            NqueensProcess.Result verify = nqueens("verify");
            assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
            // prune refuses while the file is held; its dry run only reads, so it answers.
            assertThat(nqueens("prune", "--older-than", "1d").exitCode()).isEqualTo(3);
            NqueensProcess.Result dryRun = nqueens("prune", "--older-than", "1d", "--dry-run");
            assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
            assertThat(dryRun.out()) // the wording docs/operations.md quotes
                    .startsWith("No run that ended before ")
                    .endsWith("Dry run: nothing was deleted.\n");
        } finally {
            assertThat(server.terminate().exitCode()).isIn(0, 143);
        }
        assertThat(work.resolve("data/nqueens.holder")).doesNotExist();
    }

    /** The settings a command without a context reads are those the application context binds. */
    @Test
    void bothWaysOfStartingReadTheSameSettings() throws IOException {
        Files.createDirectories(work.resolve("config"));
        Files.writeString(
                work.resolve("config/application.yml"),
                "nqueens:\n  sizes: 3-9\n  chunk-size: 700\n" + "  schedule:\n    window: 90m\n    zone: UTC\n");
        SettingsLoader.Sources sources = new SettingsLoader.Sources(
                work,
                Map.of(
                        "NQUEENS_THREADS",
                        "3",
                        "SPRING_DATASOURCE_URL",
                        TestDatabases.h2Url(work.resolve("data/nqueens"))),
                Map.of("nqueens.storage.all-up-to", "7"),
                List.of());
        ConfigurableEnvironment light = SettingsLoader.load(sources);
        NqueensProperties withoutContext = SettingsLoader.bind(light);
        SpringApplication application = new SpringApplication(Application.class);
        application.setEnvironment(SettingsLoader.environment(sources));
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setDefaultProperties(Map.of("spring.flyway.enabled", "false", "spring.batch.job.enabled", "false"));
        try (ConfigurableApplicationContext context = application.run()) {
            assertThat(context.getBean(NqueensProperties.class)).isEqualTo(withoutContext);
            for (String key : List.of(
                    "spring.datasource.url",
                    "spring.datasource.username",
                    "nqueens.sizes",
                    "nqueens.threads",
                    "nqueens.schedule.window")) {
                assertThat(context.getEnvironment().getProperty(key)).as(key).isEqualTo(light.getProperty(key));
            }
        } finally {
            Files.delete(work.resolve("config/application.yml"));
        }
        assertThat(withoutContext.sizes()).isEqualTo("3-9");
        assertThat(withoutContext.threads()).isEqualTo(3);
        assertThat(withoutContext.storageLimits().allUpTo()).isEqualTo(7);
        assertThat(withoutContext.schedule().timeWindow()).contains(Duration.ofMinutes(90));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static NqueensProcess.Result nqueens(String... args) {
        return InProcess.run(work, args);
    }
}
