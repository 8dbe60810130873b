package dev.nqueens.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.query.LastRun;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class NightlyRunHealthIndicatorTests {

    private static final Instant START = Instant.parse("2026-12-01T02:00:00Z");

    @Test
    void aFailedRunIsDownWithItsReason() {
        Health health = NightlyRunHealthIndicator.of(Optional.of(new LastRun(7, "FAILED", START, START.plus(Duration.ofMinutes(1)),
                "n=18 disagrees with the known values", Optional.of(START.minus(Duration.ofDays(1))))));
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("reason", "n=18 disagrees with the known values")
                .containsEntry("run", 7L).containsEntry("lastCompleted", "2026-11-30T02:00:00Z");
    }

    @ParameterizedTest
    @CsvSource({"COMPLETED", "STOPPED", "STARTED", "ABANDONED"})
    void otherwiseItIsUp(String status) {
        Health health = NightlyRunHealthIndicator.of(Optional.of(new LastRun(7, status, START, null, "",
                Optional.empty())));
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("status", status).doesNotContainKey("reason");
    }

    @Test
    void beforeTheFirstRunItIsUnknown() {
        assertThat(NightlyRunHealthIndicator.of(Optional.empty()).getStatus()).isEqualTo(Status.UNKNOWN);
    }
}
