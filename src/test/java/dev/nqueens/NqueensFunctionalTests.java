package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    static final Path JAR = Path.of("target", "nqueens.jar").toAbsolutePath();

    record Result(int exitCode, String out, String err) {
    }

    @TempDir
    Path workingDirectory;

    @Test
    void runSolvesStoresAndExportsThenShowPrintsAsTheSeedsDid() throws Exception {
        Result run = nqueens("run", "--sizes", "1-8,10");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("   8                   92               12          ALL").contains("Job COMPLETED");
        assertThat(workingDirectory.resolve("data/nqueens.mv.db")).exists();
        assertThat(workingDirectory.resolve("output/manifest.json")).exists();
        assertThat(workingDirectory.resolve("output/solutions-n10.csv")).exists();

        Result show = nqueens("show", "8", "--limit", "2", "--boards");
        assertThat(show.exitCode()).isZero();
        assertThat(show.out()).startsWith("No. 1: 1 5 8 6 3 7 2 4" + System.lineSeparator()
                + "Q . . . . . . ." + System.lineSeparator() + ". . . . Q . . .");
        assertThat(show.out()).contains("No. 2: 1 6 8 3 7 4 2 5").doesNotContain("No. 3:")
                .endsWith("n=8: 92 solutions, 12 fundamental" + System.lineSeparator());

        Result fundamental = nqueens("show", "8", "--fundamental");
        assertThat(fundamental.out().lines().filter(line -> line.startsWith("No. "))).hasSize(12);
        assertThat(fundamental.out()).contains("No. 10: 3 5 2 8 1 7 4 6  (orbit 4, ROT180)");

        Result again = nqueens("run", "--sizes", "8");
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).contains("Every size was already stored; reports exported again.");

        Result unsolved = nqueens("show", "9");
        assertThat(unsolved.exitCode()).isEqualTo(1);
        assertThat(unsolved.err()).isEqualTo("nqueens: n=9 has not been solved yet; run: ./nqueens run --sizes 9\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "run --sizes 0        | nqueens: invalid size list '0': 0 is out of range; sizes are whole numbers 1..32",
        "run --sizes -3       | nqueens: invalid size list '-3': -3 is out of range",
        "run --sizes abc      | nqueens: invalid size list 'abc': 'abc' is not a size",
        "run --sizes 12-4     | nqueens: invalid size list '12-4': range 12-4 is descending",
        "run --sizes 1-33     | nqueens: invalid size list '1-33': 33 is out of range",
        "frobnicate           | nqueens: Unmatched argument at index 0: 'frobnicate'",
        "run --fast           | nqueens: Unknown option: '--fast'",
        "run --threads 0      | nqueens: invalid value '0' for --threads",
        "show 0               | nqueens: invalid size list '0'"})
    void badArgumentsGetOneLineExitTwoAndWriteNothing(String args, String message) throws Exception {
        Result result = nqueens(args.split(" "));
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith(message).endsWith("\n");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    @Test
    void anOutputFolderThatIsAFileIsRefusedBeforeAnythingIsWritten() throws Exception {
        Files.writeString(workingDirectory.resolve("reports"), "not a folder");
        writeConfig("nqueens:\n  output-dir: reports\n");
        Result result = nqueens("run", "--sizes", "4");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("nqueens: output folder reports is a file, not a folder\n");
        assertThat(workingDirectory.resolve("data")).doesNotExist();
    }

    @Test
    void anOutputFolderThatCannotBeCreatedIsRefused() throws Exception {
        Files.writeString(workingDirectory.resolve("blocker"), "a file where a folder must go");
        writeConfig("nqueens:\n  output-dir: blocker/output\n");
        Result result = nqueens("run", "--sizes", "4");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("nqueens: output folder blocker/output is not writable");
        assertThat(result.err().lines()).hasSize(1);
        assertThat(workingDirectory.resolve("data")).doesNotExist();
    }

    @Test
    void aBadSizeListInTheConfigurationIsRefused() throws Exception {
        writeConfig("nqueens:\n  sizes: 5-2\n");
        Result result = nqueens("run");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("nqueens: setting nqueens.sizes: invalid size list '5-2': range 5-2 is"
                + " descending; sizes are whole numbers 1..32, as a list and/or ascending ranges such as 1-12 or"
                + " 4,8,10-12\n");
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

    private Result nqueens(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(javaExecutable(), "-Xmx256m", "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("nqueens-out", ".txt");
        Path err = Files.createTempFile("nqueens-err", ".txt");
        Process process = new ProcessBuilder(command).directory(workingDirectory.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("nqueens " + String.join(" ", args) + " did not finish in 5 minutes");
        }
        Result result = new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return result;
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
