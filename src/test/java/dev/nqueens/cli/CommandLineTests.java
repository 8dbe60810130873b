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
class CommandLineTests {

    static final List<String> COMMANDS = List.of("run", "show", "count", "verify", "sql", "history", "schedule",
            "db-server", "serve", "worker", "cluster", "prune", "backup", "restore");

    @TempDir
    Path workingDirectory;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"run", "show", "count", "verify", "sql", "history", "schedule", "db-server", "serve",
        "worker", "cluster", "prune", "backup", "restore"})
    void everyCommandHasItsHelpThreeWays(String command) throws IOException {
        NqueensProcess.Result help = nqueens(command, "--help");
        assertThat(help.exitCode()).as(help.err()).isZero();
        assertThat(help.err()).isEmpty();
        assertThat(help.out().lines().skip(1).findFirst().orElse("")).startsWith("Usage: nqueens " + command);
        assertThat(help.out()).contains("-h, --help")
                .containsPattern("Examples?:\\n  \\./nqueens " + command);
        assertThat(nqueens(command, "-h").out()).isEqualTo(help.out());
        NqueensProcess.Result viaHelp = nqueens("help", command);
        assertThat(viaHelp.exitCode()).isZero();
        assertThat(viaHelp.out()).isEqualTo(help.out());
        assertNothingWritten();
    }

    @Test
    void theOptionsOfACommandShowTheirDefaults() {
        assertThat(nqueens("run", "--help").out()).contains("--sizes=LIST").containsPattern("default: setting\\s+nqueens.sizes, 1-18")
                .contains("--threads=T").contains("--window=DURATION").contains("--force");
        assertThat(nqueens("history", "--help").out()).contains("--limit=K").contains("(default: 20)")
                .contains("(default: table)");
        assertThat(nqueens("serve", "--help").out()).contains("--port=PORT").containsPattern("default: setting\\s+server.port, 8080");
    }

    @Test
    void theTopLevelHelpListsEveryCommandOnOneLine() {
        NqueensProcess.Result help = nqueens("--help");
        assertThat(help.exitCode()).isZero();
        for (String command : COMMANDS) {
            assertThat(help.out()).containsPattern("(?m)^  " + command + " +\\S.*$");
        }
        String commands = help.out().substring(help.out().indexOf("Commands:"));
        assertThat(commands.lines().filter(line -> line.startsWith("       "))).as("wrapped lines").isEmpty();
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
    @CsvSource(delimiter = '|', value = {
        "''                    | nqueens: no command given (commands: run, show, count, verify, sql, history, schedule, db-server, serve, worker, cluster, prune, backup, restore; see --help)",
        "frobnicate            | nqueens: Unmatched argument at index 0: 'frobnicate'",
        "run --fast            | nqueens: Unknown option: '--fast'",
        "run --foo             | nqueens: Unknown option: '--foo'",
        "run --sizes 0         | nqueens: invalid size list '0': 0 is out of range; sizes are whole numbers 1..25",
        "run --sizes -3        | nqueens: invalid size list '-3': -3 is out of range",
        "run --sizes abc       | nqueens: invalid size list 'abc': 'abc' is not a size",
        "run --sizes 12-4      | nqueens: invalid size list '12-4': range 12-4 is descending",
        "run --sizes 1-33      | nqueens: invalid size list '1-33': 33 is out of range",
        "run --sizes 26        | nqueens: invalid size list '26': n=26 is beyond what the counting engine counts",
        "run --threads 0       | nqueens: invalid value '0' for --threads",
        "run --lower 0         | nqueens: invalid size list '0': 0 is out of range",
        "run --store-all-up-to -1 | nqueens: invalid value '-1' for --store-all-up-to: a board size 0..25",
        "run --store-fundamental-up-to 40 | nqueens: invalid value '40' for --store-fundamental-up-to: a board size 0..25",
        "run --window 5x       | nqueens: invalid value '5x' for --window: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "run --window 0s       | nqueens: invalid value '0s' for --window: the window must be longer than zero",
        "run --window -5m      | nqueens: invalid value '-5m' for --window: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "run --window 300      | nqueens: invalid value '300' for --window: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "run --window 3M       | nqueens: invalid value '3M' for --window: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "run --window 500ms    | nqueens: invalid value '500ms' for --window: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "show                  | nqueens: Missing required parameter: 'N'",
        "show 0                | nqueens: invalid size '0' for show: a board size 1..25",
        "show 99               | nqueens: invalid size '99' for show: a board size 1..25",
        "show 8-9              | nqueens: invalid size '8-9' for show: a board size 1..25 (show takes one size)",
        "show 8 --limit -1     | nqueens: invalid value '-1' for --limit",
        "count 40              | nqueens: invalid size '40' for count: a board size 1..25",
        "count 0               | nqueens: invalid size '0' for count: a board size 1..25",
        "count 26              | nqueens: invalid size '26' for count: a board size 1..25 (n=26 is beyond what the counting engine counts)",
        "count 8,9             | nqueens: invalid size '8,9' for count: a board size 1..25 (count takes one size)",
        "count abc             | nqueens: invalid size 'abc' for count",
        "count 12 --threads 0  | nqueens: invalid value '0' for --threads",
        "count 8 --threads -1  | nqueens: invalid value '-1' for --threads",
        "count 8 --threads x   | nqueens: invalid value 'x' for --threads",
        "count 8 --threads 99999999999 | nqueens: invalid value '99999999999' for --threads",
        "count 8 --foo 2       | nqueens: Unknown options: '--foo', '2'",
        "count 8 --threads     | nqueens: Missing required parameter for option '--threads'",
        "count                 | nqueens: Missing required parameter: 'N'",
        "sql                   | nqueens: Missing required parameter: 'STATEMENT'",
        "sql 'SELECT 1' --format xml | nqueens: invalid value 'xml' for --format: table, csv or json",
        "sql 'SELECT 1; DELETE FROM board_summary' | nqueens: refused: one statement only; the text holds 2",
        "sql 'DELETE FROM board_summary' | nqueens: refused: 'delete' is not a read-only statement",
        "history --limit 0     | nqueens: invalid value '0' for --limit",
        "db-server --pg-port 0 | nqueens: invalid value '0' for --pg-port: a TCP port 1..65535",
        "db-server --tcp-port 70000 | nqueens: invalid value '70000' for --tcp-port: a TCP port 1..65535",
        "serve --port 0        | nqueens: invalid value '0' for --port: a TCP port 1..65535",
        "serve --port http     | nqueens: invalid value 'http' for --port: a TCP port 1..65535",
        "worker --threads 0    | nqueens: invalid value '0' for --threads",
        "worker --fast         | nqueens: Unknown option: '--fast'",
        "cluster extra         | nqueens: Unmatched argument at index 1: 'extra'",
        "prune                 | nqueens: Missing required option: '--older-than=AGE'",
        "prune --older-than 5x | nqueens: invalid value '5x' for --older-than: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "prune --older-than 90 | nqueens: invalid value '90' for --older-than: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "prune --older-than 3M | nqueens: invalid value '3M' for --older-than: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "prune --older-than 1y | nqueens: invalid value '1y' for --older-than: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "prune --older-than -5d | nqueens: invalid value '-5d' for --older-than: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "prune --older-than PT-5H | nqueens: invalid value 'PT-5H' for --older-than: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "prune --older-than 0d | nqueens: invalid value '0d' for --older-than: the age must be longer than zero",
        "prune --older-than 90 --dry-run | nqueens: invalid value '90' for --older-than: a whole number and a unit s, m, h, d or w (30s, 90m, 12h, 90d, 2w), or ISO-8601",
        "backup                | nqueens: Missing required parameter: 'FILE.zip'",
        "backup nqueens.tar    | nqueens: invalid backup file 'nqueens.tar': a zip file's name, ending in .zip",
        "backup /dev/null/b.zip | nqueens: invalid backup file '/dev/null/b.zip': /dev/null is not a folder",
        "restore               | nqueens: Missing required parameter: 'FILE.zip'",
        "restore missing.zip   | nqueens: invalid backup file 'missing.zip': there is no readable file "})
    void badArgumentsGetOneLineOnStderrExitTwoAndWriteNothing(String args, String message) throws IOException {
        NqueensProcess.Result result = nqueens(args.isEmpty() ? new String[0] : split(args));
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith(message).endsWith("\n");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "worker  | nqueens: cluster mode needs a shared PostgreSQL database, but spring.datasource.url is jdbc:h2:file:",
        "cluster | nqueens: cluster mode needs a shared PostgreSQL database"})
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
        java.util.regex.Matcher word = java.util.regex.Pattern.compile("'([^']*)'|(\\S+)").matcher(args);
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
