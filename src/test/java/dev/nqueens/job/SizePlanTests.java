package dev.nqueens.job;

import static dev.nqueens.job.SizePlan.Action.COMPUTE;
import static dev.nqueens.job.SizePlan.Action.DOWNGRADE;
import static dev.nqueens.job.SizePlan.Action.KEEP;
import static dev.nqueens.job.SizePlan.Action.SKIP;
import static dev.nqueens.settings.StoredLevel.ALL;
import static dev.nqueens.settings.StoredLevel.COUNT;
import static dev.nqueens.settings.StoredLevel.FUNDAMENTAL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.settings.StoredLevel;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a run does with a size, given the level its settings name and the level it is stored at. */
class SizePlanTests {

    @ParameterizedTest(name = "wanted {0}, stored {1}, force {2}, lower {3}: {5} at {4}")
    @CsvSource({
        // nothing stored yet: computed at the wanted level
        "ALL,         ,            false, false, ALL,         COMPUTE",
        "COUNT,       ,            true,  true,  COUNT,       COMPUTE",
        // stored at the wanted level
        "FUNDAMENTAL, FUNDAMENTAL, false, false, FUNDAMENTAL, SKIP",
        "FUNDAMENTAL, FUNDAMENTAL, true,  false, FUNDAMENTAL, REPLACE",
        // stored below: raised by recomputing
        "ALL,         FUNDAMENTAL, false, false, ALL,         REPLACE",
        "FUNDAMENTAL, COUNT,       false, true,  FUNDAMENTAL, REPLACE",
        // stored above: kept, unless asked to lower; force recomputes at the level it is kept at
        "FUNDAMENTAL, ALL,         false, false, ALL,         KEEP",
        "COUNT,       ALL,         false, false, ALL,         KEEP",
        "COUNT,       FUNDAMENTAL, false, false, FUNDAMENTAL, KEEP",
        "FUNDAMENTAL, ALL,         true,  false, ALL,         REPLACE",
        "FUNDAMENTAL, ALL,         false, true,  FUNDAMENTAL, DOWNGRADE",
        "COUNT,       ALL,         false, true,  COUNT,       DOWNGRADE",
        "FUNDAMENTAL, ALL,         true,  true,  FUNDAMENTAL, REPLACE"
    })
    void aStoredSizeIsLoweredOnlyOnRequest(
            StoredLevel wanted,
            StoredLevel stored,
            boolean force,
            boolean lower,
            StoredLevel level,
            SizePlan.Action action) {
        assertThat(SizePlan.decide(14, wanted, Optional.ofNullable(stored), force, lower))
                .isEqualTo(new SizePlan(14, level, action));
    }

    @Test
    void aPlanTravelsAsTextUnchanged() {
        String text = "8:ALL:COMPUTE,14:ALL:KEEP,15:FUNDAMENTAL:DOWNGRADE,18:COUNT:SKIP";
        assertThat(SizePlan.format(SizePlan.parse(text))).isEqualTo(text);
        assertThat(SizePlan.parse(text)).extracting(SizePlan::action).containsExactly(COMPUTE, KEEP, DOWNGRADE, SKIP);
        assertThat(SizePlan.parse(text)).extracting(SizePlan::level).containsExactly(ALL, ALL, FUNDAMENTAL, COUNT);
    }
}
