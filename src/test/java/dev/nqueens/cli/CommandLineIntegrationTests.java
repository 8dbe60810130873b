package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.InProcess;
import dev.nqueens.NqueensProcess;
import dev.nqueens.TestResources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The command line as a user meets it, run in this JVM: every command's help, the version, and
 * bad input, which gets one line on stderr, nothing on stdout, exit code 2, and leaves nothing
 * behind (it is refused before any setting is read or anything is opened).
 */
@ResourceLock(TestResources.TEST_JVM) // command lines in this JVM (InProcess)
class CommandLineIntegrationTests {

    static final List<String> COMMANDS = List.of(
            "run",
            "show",
            "count",
            "verify",
            "sql",
            "history",
            "schedule",
            "db-server",
            "serve",
            "worker",
            "cluster",
            "prune",
            "backup",
            "restore");

    @TempDir
    Path workingDirectory;

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "run",
                "show",
                "count",
                "verify",
                "sql",
                "history",
                "schedule",
                "db-server",
                "serve",
                "worker",
                "cluster",
                "prune",
                "backup",
                "restore"
            })
    void everyCommandHasItsHelpThreeWays(String command) throws IOException {
        NqueensProcess.Result help = nqueens(command, "--help");
        assertThat(help.exitCode()).as(help.err()).isZero();
        assertThat(help.err()).isEmpty();
        assertThat(help.out().lines().skip(1).findFirst().orElse("")).startsWith("Usage: nqueens " + command);
        assertThat(help.out()).contains("-h, --help").containsPattern("Examples?:\\n  \\./nqueens " + command);
        assertThat(nqueens(command, "-h").out()).isEqualTo(help.out());
        NqueensProcess.Result viaHelp = nqueens("help", command);
        assertThat(viaHelp.exitCode()).isZero();
        assertThat(viaHelp.out()).isEqualTo(help.out());
        assertNothingWritten();
    }

    @Test
    void theOptionsOfACommandShowTheirDefaults() {
        assertThat(nqueens("run", "--help").out())
                .contains("--sizes=LIST")
                .containsPattern("default: setting\\s+nqueens.sizes, 1-18")
                .contains("--threads=T")
                .contains("--window=DURATION")
                .contains("--force");
        assertThat(nqueens("history", "--help").out())
                .contains("--limit=K")
                .contains("(default: 20)")
                .contains("(default: table)");
        assertThat(nqueens("serve", "--help").out())
                .contains("--port=PORT")
                .containsPattern("default: setting\\s+server.port, 8080");
    }

    @Test
    void theTopLevelHelpListsEveryCommandOnOneLine() {
        NqueensProcess.Result help = nqueens("--help");
        assertThat(help.exitCode()).isZero();
        for (String command : COMMANDS) {
            assertThat(help.out()).containsPattern("(?m)^  " + command + " +\\S.*$");
        }
        String commands = help.out().substring(help.out().indexOf("Commands:"));
        assertThat(commands.lines().filter(line -> line.startsWith("       ")))
                .as("wrapped lines")
                .isEmpty();
        assertThat(help.out().lines().count()).isLessThan(50);
        assertThat(nqueens("help").out()).isEqualTo(help.out());
    }

    @Test
    void theVersionIsPrinted() {
        NqueensProcess.Result version = nqueens("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).matches("nqueens \\S+, schema \\d+\\n");
        assertThat(nqueens("run", "--version").out()).isEqualTo(version.out());
    }

    /**
     * Each row: the arguments ('quoted' words kept whole), then what the line must name (the word
     * refused, what is missing), separated by {@code &}.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "\"\"                    | --help",
                "frobnicate            | 'frobnicate'",
                "run --fast            | '--fast'",
                "run --foo             | '--foo'",
                "show                  | 'N'",
                "count 8 --foo 2       | '--foo' & '2'",
                "count 8 --threads     | '--threads'",
                "count                 | 'N'",
                "sql                   | 'STATEMENT'",
                "sql 'SELECT 1; DELETE FROM board_summary' | one statement & 2",
                "sql 'DELETE FROM board_summary' | 'delete'",
                "worker --fast         | '--fast'",
                "cluster extra         | 'extra'",
                "prune                 | --older-than",
                "backup                | 'FILE.zip'",
                "backup nqueens.tar    | 'nqueens.tar' & .zip",
                "backup /dev/null/b.zip | '/dev/null/b.zip' & /dev/null",
                "restore               | 'FILE.zip'",
                "restore missing.zip   | 'missing.zip'"
            })
    void badArgumentsGetOneLineOnStderrExitTwoAndWriteNothing(String args, String named) throws IOException {
        NqueensProcess.Result result = nqueens(args.isEmpty() ? new String[0] : split(args));
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err())
                .startsWith("nqueens: ")
                .contains(named.split(" & "))
                .endsWith("\n");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    @Test
    void noCommandGetsEveryCommandNamed() {
        NqueensProcess.Result result = nqueens();
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("nqueens: ").contains(COMMANDS);
        assertThat(result.err().lines()).hasSize(1);
    }

    /**
     * A value an option (or a command's size) refuses is bad input as picocli parses it: one line naming
     * the option and the value and saying what is allowed (no list of commands), exit code 2, nothing started.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "run --sizes 0                    | --sizes | 0 | 1..25",
                "run --sizes -3                   | --sizes | -3 | 1..25",
                "run --sizes abc                  | --sizes | abc | 1..25",
                "run --sizes 12-4                 | --sizes | 12-4 | 1..25",
                "run --sizes 1-33                 | --sizes | 1-33 | 1..25",
                "run --sizes 26                   | --sizes | 26 | 1..25",
                "run --threads 0                  | --threads | 0 | >= 1",
                "run --lower 0                    | --lower | 0 | 1..25",
                "run --store-all-up-to -1         | --store-all-up-to | -1 | 0..25",
                "run --store-fundamental-up-to 40 | --store-fundamental-up-to | 40 | 0..25",
                "run --window 5x                  | --window | 5x | s, m, h, d or w",
                "run --window 0s                  | --window | 0s | longer than zero",
                "run --window -5m                 | --window | -5m | s, m, h, d or w",
                "run --window 300                 | --window | 300 | s, m, h, d or w",
                "run --window 3M                  | --window | 3M | s, m, h, d or w",
                "run --window 500ms               | --window | 500ms | s, m, h, d or w",
                "show 0                           | (N) | 0 | 1..25",
                "show 99                          | (N) | 99 | 1..25",
                "show 8-9                         | (N) | 8-9 | 1..25",
                "show 8 --limit -1                | --limit | -1 | >= 1",
                "count 40                         | (N) | 40 | 1..25",
                "count 0                          | (N) | 0 | 1..25",
                "count 26                         | (N) | 26 | 1..25",
                "count 8,9                        | (N) | 8,9 | 1..25",
                "count abc                        | (N) | abc | 1..25",
                "count 12 --threads 0             | --threads | 0 | >= 1",
                "count 8 --threads -1             | --threads | -1 | >= 1",
                "count 8 --threads x              | --threads | x | >= 1",
                "count 8 --threads 99999999999    | --threads | 99999999999 | >= 1",
                "sql 'SELECT 1' --format xml      | --format | xml | TABLE, CSV, JSON",
                "history --limit 0                | --limit | 0 | >= 1",
                "history --format xml             | --format | xml | TABLE, CSV, JSON",
                "db-server --pg-port 0            | --pg-port | 0 | 1..65535",
                "db-server --tcp-port 70000       | --tcp-port | 70000 | 1..65535",
                "serve --port 0                   | --port | 0 | 1..65535",
                "serve --port http                | --port | http | 1..65535",
                "worker --threads 0               | --threads | 0 | >= 1",
                "prune --older-than 5x            | --older-than | 5x | s, m, h, d or w",
                "prune --older-than 90            | --older-than | 90 | s, m, h, d or w",
                "prune --older-than 3M            | --older-than | 3M | s, m, h, d or w",
                "prune --older-than 1y            | --older-than | 1y | s, m, h, d or w",
                "prune --older-than -5d           | --older-than | -5d | s, m, h, d or w",
                "prune --older-than PT-5H         | --older-than | PT-5H | s, m, h, d or w",
                "prune --older-than 0d            | --older-than | 0d | longer than zero",
                "prune --older-than 90 --dry-run  | --older-than | 90 | s, m, h, d or w"
            })
    void aRefusedValueGetsOneLineNamingItsOptionAndTheValue(String args, String option, String value, String allowed)
            throws IOException {
        NqueensProcess.Result result = nqueens(split(args));
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err())
                .startsWith("nqueens: ")
                .contains(option, "'" + value + "'", allowed)
                .doesNotContain("(commands:")
                .endsWith("\n");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"worker", "cluster"})
    void clusterCommandsOnTheEmbeddedDatabaseAreRefused(String command) throws IOException {
        NqueensProcess.Result result = nqueens(command);
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err())
                .startsWith("nqueens: ")
                .contains("PostgreSQL", "spring.datasource.url", "jdbc:h2:file:");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    /** Splits on spaces, keeping a 'quoted part' whole. */
    private static String[] split(String args) {
        List<String> words = new java.util.ArrayList<>();
        java.util.regex.Matcher word =
                java.util.regex.Pattern.compile("'([^']*)'|(\\S+)").matcher(args);
        while (word.find()) {
            words.add(word.group(1) != null ? word.group(1) : word.group(2));
        }
        return words.toArray(String[]::new);
    }

    private NqueensProcess.Result nqueens(String... args) {
        return InProcess.run(workingDirectory, Map.of(), args);
    }

    private void assertNothingWritten() throws IOException {
        try (Stream<Path> files = Files.list(workingDirectory)) {
            assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("data", "output");
        }
    }
}
