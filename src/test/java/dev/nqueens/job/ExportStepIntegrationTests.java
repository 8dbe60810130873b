package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.Application;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StorageLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.test.JobOperatorTestUtils;
import org.springframework.batch.test.context.SpringBatchTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The export step alone, started by Spring Batch's test support on a database a run filled: it
 * writes every report the manifest lists, and removes the files of its own names the manifest no
 * longer lists.
 */
@SpringBatchTest
@SpringBootTest(
        classes = Application.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {"nqueens.threads=2", "logging.file.name="})
@ResourceLock(TestResources.TEST_JVM)
class ExportStepIntegrationTests {

    @TempDir
    static Path work;

    @Autowired
    JobOperatorTestUtils batch;

    @Autowired
    NightlyRun nightlyRun;

    @DynamicPropertySource
    static void freshDatabase(DynamicPropertyRegistry registry) {
        TestDatabases.useH2(registry, work);
        registry.add("nqueens.output-dir", () -> work.resolve("output").toString());
    }

    /** Sizes 1-6 stored (the first test's run; a later one finds them stored and computes nothing). */
    @BeforeEach
    void storedSizes() {
        NightlyRun.Outcome outcome = nightlyRun.run(
                new RunRequest(BoardSizes.parse("1-6"), new StorageLimits(6, 6), false, LocalDateTime.now()));
        assertThat(outcome.status()).isEqualTo(BatchStatus.COMPLETED);
    }

    @Test
    void theStepWritesWhatTheManifestListsAndRemovesWhatItNoLongerLists() throws Exception {
        Path output = work.resolve("output");
        Files.delete(output.resolve("summary.csv"));
        Path stale = output.resolve("solutions-n07.csv");
        Files.writeString(stale, "n,ordinal,placement\n");
        Path foreign = output.resolve("notes.txt");
        Files.writeString(foreign, "not ours\n");

        JobExecution execution = batch.startStep(NightlyJobConfiguration.EXPORT_STEP);

        assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        List<String> listed = manifestFiles(output);
        assertThat(listed).contains("summary.csv", "solutions-n06.csv").doesNotContain("solutions-n07.csv");
        for (String name : listed) {
            assertThat(output.resolve(name)).as(name).isRegularFile();
        }
        StepExecution step = execution.getStepExecutions().iterator().next();
        assertThat(step.getWriteCount())
                .as("one write a file: those listed, the manifest and SHA256SUMS")
                .isEqualTo(listed.size() + 2);
        assertThat(stale)
                .as("a file of the export's own names the manifest does not list")
                .doesNotExist();
        assertThat(foreign).as("a file the export never writes").exists();
    }

    private static List<String> manifestFiles(Path output) {
        JsonNode manifest = JsonMapper.builder()
                .build()
                .readTree(output.resolve("manifest.json").toFile());
        return manifest.get("files")
                .valueStream()
                .map(file -> file.get("name").asString())
                .toList();
    }
}
