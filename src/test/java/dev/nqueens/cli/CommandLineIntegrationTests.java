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

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "''                    | nqueens: no command given (commands: run, show, count, verify, sql, history, schedule, db-server, serve, worker, cluster, prune, backup, restore; see --help)",
                "frobnicate            | nqueens: Unmatched argument at index 0: 'frobnicate'",
                "run --fast            | nqueens: Unknown option: '--fast'",
                "run --foo             | nqueens: Unknown option: '--foo'",
                "show                  | nqueens: Missing required parameter: 'N'",
                "count 8 --foo 2       | nqueens: Unknown options: '--foo', '2'",
                "count 8 --threads     | nqueens: Missing required parameter for option '--threads'",
                "count                 | nqueens: Missing required parameter: 'N'",
                "sql                   | nqueens: Missing required parameter: 'STATEMENT'",
                "sql 'SELECT 1; DELETE FROM board_summary' | nqueens: refused: one statement only; the text holds 2",
                "sql 'DELETE FROM board_summary' | nqueens: refused: 'delete' is not a read-only statement",
                "worker --fast         | nqueens: Unknown option: '--fast'",
                "cluster extra         | nqueens: Unmatched argument at index 1: 'extra'",
                "prune                 | nqueens: Missing required option: '--older-than=AGE'",
                "backup                | nqueens: Missing required parameter: 'FILE.zip'",
                "backup nqueens.tar    | nqueens: invalid backup file 'nqueens.tar': a zip file's name, ending in .zip",
                "backup /dev/null/b.zip | nqueens: invalid backup file '/dev/null/b.zip': /dev/null is not a folder",
                "restore               | nqueens: Missing required parameter: 'FILE.zip'",
                "restore missing.zip   | nqueens: invalid backup file 'missing.zip': there is no readable file "
            })
    void badArgumentsGetOneLineOnStderrExitTwoAndWriteNothing(String args, String message) throws IOException {
        NqueensProcess.Result result = nqueens(args.isEmpty() ? new String[0] : split(args));
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith(message).endsWith("\n");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    /**
     * A value an option (or a command's size) refuses is bad input as picocli parses it: one line naming
     * the option and the value and saying what is allowed (no list of commands), exit code 2, nothing started.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "run --sizes 0                    | --sizes | 0 | 0 is out of range; sizes are whole numbers 1..25",
                "run --sizes -3                   | --sizes | -3 | -3 is out of range",
                "run --sizes abc                  | --sizes | abc | is not a size",
                "run --sizes 12-4                 | --sizes | 12-4 | range 12-4 is descending",
                "run --sizes 1-33                 | --sizes | 1-33 | 33 is out of range",
                "run --sizes 26                   | --sizes | 26 | n=26 is beyond what the counting engine counts",
                "run --threads 0                  | --threads | 0 | a whole number >= 1",
                "run --lower 0                    | --lower | 0 | 0 is out of range",
                "run --store-all-up-to -1         | --store-all-up-to | -1 | a board size 0..25 (0 = none)",
                "run --store-fundamental-up-to 40 | --store-fundamental-up-to | 40 | a board size 0..25 (0 = none)",
                "run --window 5x                  | --window | 5x | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "run --window 0s                  | --window | 0s | longer than zero",
                "run --window -5m                 | --window | -5m | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "run --window 300                 | --window | 300 | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "run --window 3M                  | --window | 3M | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "run --window 500ms               | --window | 500ms | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "show 0                           | (N) | 0 | one board size 1..25",
                "show 99                          | (N) | 99 | one board size 1..25",
                "show 8-9                         | (N) | 8-9 | one board size 1..25",
                "show 8 --limit -1                | --limit | -1 | a whole number >= 1",
                "count 40                         | (N) | 40 | one board size 1..25",
                "count 0                          | (N) | 0 | one board size 1..25",
                "count 26                         | (N) | 26 | one board size 1..25: n=26 is beyond what the counting engine counts",
                "count 8,9                        | (N) | 8,9 | one board size 1..25",
                "count abc                        | (N) | abc | one board size 1..25",
                "count 12 --threads 0             | --threads | 0 | a whole number >= 1",
                "count 8 --threads -1             | --threads | -1 | a whole number >= 1",
                "count 8 --threads x              | --threads | x | a whole number >= 1",
                "count 8 --threads 99999999999    | --threads | 99999999999 | a whole number >= 1",
                "sql 'SELECT 1' --format xml      | --format | xml | TABLE, CSV, JSON",
                "history --limit 0                | --limit | 0 | a whole number >= 1",
                "history --format xml             | --format | xml | TABLE, CSV, JSON",
                "db-server --pg-port 0            | --pg-port | 0 | a TCP port 1..65535",
                "db-server --tcp-port 70000       | --tcp-port | 70000 | a TCP port 1..65535",
                "serve --port 0                   | --port | 0 | a TCP port 1..65535",
                "serve --port http                | --port | http | a TCP port 1..65535",
                "worker --threads 0               | --threads | 0 | a whole number >= 1",
                "prune --older-than 5x            | --older-than | 5x | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "prune --older-than 90            | --older-than | 90 | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "prune --older-than 3M            | --older-than | 3M | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "prune --older-than 1y            | --older-than | 1y | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "prune --older-than -5d           | --older-than | -5d | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "prune --older-than PT-5H         | --older-than | PT-5H | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
                "prune --older-than 0d            | --older-than | 0d | longer than zero",
                "prune --older-than 90 --dry-run  | --older-than | 90 | a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601"
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
    @CsvSource(
            delimiter = '|',
            value = {
                "worker  | nqueens: cluster mode needs a shared PostgreSQL database, but spring.datasource.url is jdbc:h2:file:",
                "cluster | nqueens: cluster mode needs a shared PostgreSQL database"
            })
    void clusterCommandsOnTheEmbeddedDatabaseAreRefused(String command, String message) throws IOException {
        NqueensProcess.Result result = nqueens(command);
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith(message).endsWith("(workers on other machines cannot share it)\n");
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
