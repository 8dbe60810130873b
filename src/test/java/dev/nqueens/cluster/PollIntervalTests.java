package dev.nqueens.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The manager polls the repository often for a step of few partitions and rarely for one of thousands. */
class PollIntervalTests {

    @Test
    void followsThePartitionsBetweenHalfASecondAndFiveSeconds() {
        assertThat(ClusterPartitionHandler.pollInterval(1)).isEqualTo(Duration.ofMillis(500));
        assertThat(ClusterPartitionHandler.pollInterval(64)).isEqualTo(Duration.ofMillis(500));
        assertThat(ClusterPartitionHandler.pollInterval(1280)).isEqualTo(Duration.ofMillis(2560));
        assertThat(ClusterPartitionHandler.pollInterval(6400)).isEqualTo(Duration.ofSeconds(5));
    }
}
