package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The program as a user runs it: the packaged jar started as a separate process in a fresh
 * working directory, checked by its exit code, what it prints and the files it leaves. What needs no
 * process of its own (bad input and settings, the commands' output) is tested in the test JVM:
 * {@code cli.CommandLineIntegrationTests}, {@code cli.BadSettingsIntegrationTests}, {@code CommandsIntegrationTests}.
 */
@Order(8) // middling: at the front after the disk-full class, so the last classes to start are short (see the pom)
@ResourceLock(TestResources.TEST_JVM)
class NqueensFunctionalTests {

    @TempDir
    Path workingDirectory;

    @Test
    void runSolvesStoresAndExportsThenShowPrintsAsTheSeedsDid() throws Exception {
        NqueensProcess.Result run = nqueens("run", "--sizes", "1-8,10");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("   8                   92               12          ALL")
                .contains("Job COMPLETED");
        assertThat(workingDirectory.resolve("data/nqueens.mv.db")).exists();
        assertThat(workingDirectory.resolve("output/manifest.json")).exists();
        assertThat(workingDirectory.resolve("output/solutions-n10.csv")).exists();

        NqueensProcess.Result show = nqueens("show", "8", "--limit", "2", "--boards");
        assertThat(show.exitCode()).isZero();
        assertThat(show.out())
                .startsWith("No. 1: 1 5 8 6 3 7 2 4" + System.lineSeparator() + "Q . . . . . . ."
                        + System.lineSeparator() + ". . . . Q . . .");
        assertThat(show.out())
                .contains("No. 2: 1 6 8 3 7 4 2 5")
                .doesNotContain("No. 3:")
                .endsWith("n=8: 92 solutions, 12 fundamental" + System.lineSeparator());

        NqueensProcess.Result fundamental = nqueens("show", "8", "--fundamental");
        assertThat(fundamental.out().lines().filter(line -> line.startsWith("No. ")))
                .hasSize(12);
        assertThat(fundamental.out()).contains("No. 10: 3 5 2 8 1 7 4 6  (orbit 4, ROT180)");

        // A report the manifest does not list (n = 9 is not stored): the run with nothing to compute removes it.
        Path output = workingDirectory.resolve("output");
        Files.copy(output.resolve("solutions-n08.csv"), output.resolve("solutions-n09.csv"));
        NqueensProcess.Result again = nqueens("run", "--sizes", "8");
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()) // the wording docs/operations.md quotes
                .contains("Every size was already stored; the reports are up to date.")
                .contains("solutions-n09.csv");
        assertThat(output.resolve("solutions-n09.csv")).doesNotExist();

        NqueensProcess.Result sql = nqueens("sql", "SELECT COUNT(*) AS solutions FROM solution WHERE n = 8");
        assertThat(sql.exitCode()).isZero();
        assertThat(sql.out()).isEqualTo("solutions\n---------\n92\n(1 row)\n");
        NqueensProcess.Result csv = nqueens(
                "sql", "SELECT ordinal, placement FROM solution WHERE n = 6 ORDER BY ordinal", "--format", "csv");
        assertThat(csv.out()).startsWith("ordinal,placement\n1,\"2 4 6 1 3 5\"\n");
        NqueensProcess.Result write = nqueens("sql", "DELETE FROM board_summary");
        assertThat(write.exitCode()).isEqualTo(2);
        // The statement refused, and what is allowed.
        assertThat(write.err()).startsWith("nqueens: ").contains("'delete'", "SELECT");
        assertThat(write.err().lines()).hasSize(1);
        NqueensProcess.Result history = nqueens("history", "--all", "--format", "csv");
        assertThat(history.out().lines())
                .hasSize(3)
                .first()
                .isEqualTo("run,started,ended,status,sizes,published,rows_written,seconds,notes");
        assertThat(history.out())
                .contains(",COMPLETED,8,,0,")
                .contains(",COMPLETED,\"1-8,10\",\"1 2 3 4 5 6 7 8 10\",873,");

        NqueensProcess.Result unsolved = nqueens("show", "9");
        assertThat(unsolved.exitCode()).isEqualTo(1);
        assertThat(unsolved.err()).startsWith("nqueens: ").contains("n=9", "./nqueens run --sizes 9");
        assertThat(unsolved.err().lines()).hasSize(1);
    }

    @Test
    void anOutputFolderThatIsAFileIsRefusedBeforeAnythingIsWritten() throws Exception {
        Files.writeString(workingDirectory.resolve("reports"), "not a folder");
        writeConfig("nqueens:\n  output-dir: reports\n");
        NqueensProcess.Result result = nqueens("run", "--sizes", "4");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("nqueens: ").contains("reports");
        assertThat(result.err().lines()).hasSize(1);
        assertThat(workingDirectory.resolve("data")).doesNotExist();
    }

    @Test
    void anOutputFolderThatCannotBeCreatedIsRefused() throws Exception {
        Files.writeString(workingDirectory.resolve("blocker"), "a file where a folder must go");
        writeConfig("nqueens:\n  output-dir: blocker/output\n");
        NqueensProcess.Result result = nqueens("run", "--sizes", "4");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("nqueens: ").contains("blocker/output");
        assertThat(result.err().lines()).hasSize(1);
        assertThat(workingDirectory.resolve("data")).doesNotExist();
    }

    @Test
    void anUnknownKeyIsNamedWithTheFileItIsIn() throws Exception {
        writeConfig("nqueens:\n  sizez: 1-3\n");
        NqueensProcess.Result result = nqueens("run", "--sizes", "4");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        // The key refused, its file, and the known settings (the one meant among them).
        assertThat(result.err())
                .startsWith("nqueens: ")
                .contains("'nqueens.sizez'", "config/application.yml", "nqueens.chunk-size", "nqueens.sizes");
        assertThat(result.err().lines()).hasSize(1);
        assertNothingWritten();
    }

    @Test
    void scheduleRunsTheJobOnItsCronOneInstancePerRunAndStopsOnSigterm() throws Exception {
        writeConfig("nqueens:\n  sizes: 1-6\n  schedule:\n    cron: \"*/2 * * * * *\"\n");
        NqueensProcess schedule = NqueensProcess.start(workingDirectory, "schedule");
        schedule.awaitLine(line -> line.contains("schedule '*/2 * * * * *' started"), java.time.Duration.ofMinutes(1));
        java.util.concurrent.atomic.AtomicInteger completed = new java.util.concurrent.atomic.AtomicInteger();
        schedule.awaitLine(
                line -> line.contains("ended COMPLETED") && completed.incrementAndGet() == 2,
                java.time.Duration.ofMinutes(1));
        // It holds the file all along: its marker names it, and it takes a backup when asked.
        assertThat(Files.readString(workingDirectory.resolve("data/nqueens.holder")))
                .contains("command=schedule");
        NqueensProcess.Result backup = InProcess.run(workingDirectory, "backup", "nightly.zip");
        assertThat(backup.exitCode()).as(backup.err()).isZero();
        assertThat(backup.out()).contains("taken by `nqueens schedule` (pid " + schedule.pid() + ")");
        // A run meanwhile is refused in one line naming the holder and what it does.
        NqueensProcess.Result refused = InProcess.run(workingDirectory, "run", "--sizes", "4");
        assertThat(refused.exitCode()).isEqualTo(3);
        assertThat(refused.err().lines())
                .singleElement()
                .asString()
                .contains("`nqueens schedule` (pid " + schedule.pid() + ")", "'*/2 * * * * *'");
        assertThat(dev.nqueens.h2.H2Backup.contents(workingDirectory.resolve("nightly.zip")))
                .isEqualTo("nqueens.mv.db");
        NqueensProcess.Result stopped = schedule.terminate();
        assertThat(stopped.exitCode()).isEqualTo(143);
        assertThat(stopped.out()).contains("schedule stopped");
        assertThat(workingDirectory.resolve("data/nqueens.holder")).doesNotExist();

        NqueensProcess.Result instances =
                nqueens("sql", "SELECT COUNT(DISTINCT job_instance_id) AS instances FROM batch_job_execution");
        assertThat(Integer.parseInt(instances
                        .out()
                        .lines()
                        .skip(2)
                        .findFirst()
                        .orElseThrow()
                        .trim()))
                .isGreaterThanOrEqualTo(2);
        NqueensProcess.Result history = nqueens("history", "--all");
        assertThat(history.out().lines().filter(line -> line.contains("COMPLETED")))
                .hasSizeGreaterThanOrEqualTo(2);
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
