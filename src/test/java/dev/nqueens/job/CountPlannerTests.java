package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.count.CountingEngine;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.SettingsLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.core.partition.PartitionHandler;
import org.springframework.batch.core.step.Step;

/** How many partitions a counted size is dealt into by default, and when the setting says. */
class CountPlannerTests {

    @TempDir
    Path workingDirectory;

    @Test
    void aSizeGetsAFewPartitionsPerThreadButNoneOfFewerThanTwentyFiveMillionSolutions() {
        CountPlanner planner = planner(Map.of(), 2);
        assertThat(partitions(planner, 8)).as("Q(8) = 92").isEqualTo(1);
        assertThat(partitions(planner, 16)).as("Q(16) = 14,772,512").isEqualTo(1);
        assertThat(partitions(planner, 17)).as("Q(17) = 95,815,104").isEqualTo(3);
        assertThat(partitions(planner, 18)).as("Q(18) = 666,090,624").isEqualTo(26);
        assertThat(partitions(planner, 19)).as("64 at most on one machine").isEqualTo(64);
        assertThat(partitions(planner(Map.of(), 100), 21))
                .as("4 per thread of a large cluster")
                .isEqualTo(400);
    }

    @Test
    void theSettingIsTakenAsItIsUpToTheWorkUnits() {
        CountPlanner planner = planner(Map.of("NQUEENS_COUNT_PARTITIONS", "5"), 2);
        assertThat(partitions(planner, 8))
                .isEqualTo(Math.min(5, CountingEngine.workUnits(8).size()));
        assertThat(partitions(planner, 16)).isEqualTo(5);
        assertThat(partitions(planner, 19)).isEqualTo(5);
    }

    private static int partitions(CountPlanner planner, int n) {
        return planner.partitions(n, CountingEngine.workUnits(n).size());
    }

    private CountPlanner planner(Map<String, String> variables, int capacity) {
        NqueensProperties properties = SettingsLoader.bind(
                SettingsLoader.load(new SettingsLoader.Sources(workingDirectory, variables, Map.of(), List.of())));
        PartitionExecution execution = new PartitionExecution() {
            @Override
            public PartitionHandler handler(String workerStepName, Step workerStep) {
                throw new UnsupportedOperationException();
            }

            @Override
            public int capacity() {
                return capacity;
            }

            @Override
            public int replicas(int n, boolean published) {
                return 1;
            }
        };
        return new CountPlanner(null, KnownCounts.load(), execution, properties);
    }
}
