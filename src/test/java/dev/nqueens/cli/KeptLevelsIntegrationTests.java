package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.InProcess;
import dev.nqueens.NqueensProcess;
import dev.nqueens.Reference;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A run never drops rows a user stored unless asked to: a size stored at a higher level than its
 * settings name is kept by a plain run (and said to be), lowered only with {@code --lower} (which
 * says how many rows go), recomputed at its own level by {@code --force}; {@code history} says what
 * each run did with it and folds the runs with nothing to compute. Sizes 1-9, with every solution
 * up to 8 and the representatives of 9 in the settings, as a user's configuration.
 */
@ResourceLock(TestResources.TEST_JVM)
class KeptLevelsIntegrationTests {

    private static final long SOLUTIONS_OF_9 = Reference.counts(9).total();
    private static final long CLASSES_OF_9 = Reference.counts(9).fundamental();

    @TempDir
    Path work;

    @BeforeEach
    void configureAndStoreEverySolutionOfNine() throws IOException, SQLException {
        Files.createDirectories(work.resolve("config"));
        Files.writeString(work.resolve("config/application.yml"), """
                nqueens:
                  sizes: 1-9
                  storage:
                    all-up-to: 8
                    fundamental-up-to: 9
                """);
        succeeds("run");
        assertThat(solutionRows(9)).isZero();
        succeeds("run", "--sizes", "9", "--store-all-up-to", "9");
        assertThat(solutionRows(9)).isEqualTo(SOLUTIONS_OF_9);
    }

    @Test
    void aPlainRunKeepsTheSizeAndSaysSo() throws Exception {
        NqueensProcess.Result night = succeeds("run");
        assertThat(solutionRows(9)).isEqualTo(SOLUTIONS_OF_9);
        assertThat(level(9)).isEqualTo("ALL");
        assertThat(night.out()).contains("kept at ALL (settings: FUNDAMENTAL)");

        List<String> every =
                succeeds("history", "--all", "--format", "csv").out().lines().toList();
        assertThat(every.get(1))
                .startsWith("3,")
                .contains(",COMPLETED,1-9,,0,")
                .contains("kept 9 at ALL (settings: FUNDAMENTAL)");
        List<String> folded =
                succeeds("history", "--format", "csv").out().lines().toList();
        assertThat(folded.get(1))
                .as("the night folded into the run that stored 9")
                .startsWith("2,")
                .contains("kept 9 at ALL (settings: FUNDAMENTAL)");
    }

    @Test
    void lowerDropsTheRowsOnlyWhenAskedAndSaysHowMany() throws Exception {
        NqueensProcess.Result lowered = succeeds("run", "--sizes", "9", "--lower", "9");
        assertThat(level(9)).isEqualTo("FUNDAMENTAL");
        assertThat(solutionRows(9)).isZero();
        assertThat(classRows(9)).isEqualTo(CLASSES_OF_9);
        assertThat(lowered.out()).contains(String.format("%,d", SOLUTIONS_OF_9));

        List<String> history =
                succeeds("history", "--format", "csv").out().lines().toList();
        assertThat(history.get(1))
                .as("lowering publishes no new rows")
                .startsWith("3,")
                .contains(",9,,0,")
                .contains("lowered 9 to FUNDAMENTAL");
    }

    @Test
    void forceRecomputesAKeptSizeAtTheLevelItIsStoredAt() throws Exception {
        Object before = value("SELECT computed_at FROM board_summary WHERE n = 9");
        succeeds("run", "--sizes", "9", "--force");
        assertThat(level(9)).isEqualTo("ALL");
        assertThat(solutionRows(9)).isEqualTo(SOLUTIONS_OF_9);
        assertThat(value("SELECT computed_at FROM board_summary WHERE n = 9")).isNotEqualTo(before);
    }

    @Test
    void storeAllUpToAloneRaisesTheRepresentativesWithIt() throws Exception {
        succeeds("run", "--sizes", "10", "--store-all-up-to", "10");
        assertThat(level(10)).isEqualTo("ALL");
        assertThat(solutionRows(10)).isEqualTo(Reference.counts(10).total());
    }

    @Test
    void lowerOfASizeOutsideTheRunIsBadInputAndChangesNothing() throws Exception {
        Object runs = value("SELECT COUNT(*) FROM batch_job_execution");
        NqueensProcess.Result refused = InProcess.run(work, "run", "--sizes", "1-8", "--lower", "9");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().lines()).hasSize(1);
        assertThat(refused.err()).contains("--lower").contains("9");
        assertThat(value("SELECT COUNT(*) FROM batch_job_execution")).isEqualTo(runs);
        assertThat(solutionRows(9)).isEqualTo(SOLUTIONS_OF_9);
    }

    @Test
    void historyFoldsRunsWithNothingToComputeIntoTheRunBefore() throws Exception {
        succeeds("run");
        succeeds("run");
        List<String> folded =
                succeeds("history", "--format", "csv").out().lines().toList();
        assertThat(folded)
                .as("header, the run that stored 9 (with the two nights), the first run")
                .hasSize(3);
        assertThat(folded.get(1)).startsWith("2,").contains("then 2 runs with nothing to compute");
        assertThat(succeeds("history", "--all", "--format", "csv").out().lines())
                .hasSize(5);

        String json =
                succeeds("history", "--all", "--limit", "1", "--format", "json").out();
        assertThat(json)
                .as("nothing published is null, not text")
                .contains("\"published\":null")
                .doesNotContain("\"NULL\"");
    }

    private NqueensProcess.Result succeeds(String... args) {
        NqueensProcess.Result result = InProcess.run(work, args);
        assertThat(result.exitCode())
                .as(String.join(" ", args) + ": " + result.err())
                .isZero();
        return result;
    }

    private long solutionRows(int n) throws SQLException {
        return ((Number) value("SELECT COUNT(*) FROM solution WHERE n = " + n)).longValue();
    }

    private long classRows(int n) throws SQLException {
        return ((Number) value("SELECT COUNT(*) FROM fundamental_solution WHERE n = " + n)).longValue();
    }

    private String level(int n) throws SQLException {
        return (String) value("SELECT stored FROM board_summary WHERE n = " + n);
    }

    private Object value(String sql) throws SQLException {
        try (Connection db = TestDatabases.openH2(work.resolve("data/nqueens"));
                java.sql.Statement statement = db.createStatement();
                java.sql.ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getObject(1);
        }
    }
}
