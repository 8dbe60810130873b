package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.StoredLevel;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeapCheckTests {

    private static final KnownCounts KNOWN = KnownCounts.load();
    private static final long GB = 1L << 30;

    @Test
    void aSizeThatFitsRunsAndOneThatDoesNotIsRefusedNamingTheHeapItNeeds() {
        List<SizePlan> plan = List.of(
                new SizePlan(8, StoredLevel.ALL, SizePlan.Action.COMPUTE),
                new SizePlan(16, StoredLevel.ALL, SizePlan.Action.COMPUTE));
        assertThatCode(() -> HeapCheck.check(plan, KNOWN, true, 4 * GB)).doesNotThrowAnyException();
        // n = 16 at level ALL numbers its 1,846,955 classes in memory: more than the base heap alone.
        assertThatThrownBy(() -> HeapCheck.check(plan, KNOWN, true, HeapCheck.BASE + (10 << 20)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("n=16")
                .hasMessageContaining("NQUEENS_JAVA_OPTS=-Xmx");
    }

    @Test
    void onlyWhatThisJvmComputesCounts() {
        long tiny = 64L << 20;
        List<SizePlan> kept = List.of(
                new SizePlan(12, StoredLevel.ALL, SizePlan.Action.SKIP),
                new SizePlan(14, StoredLevel.ALL, SizePlan.Action.KEEP));
        assertThatCode(() -> HeapCheck.check(kept, KNOWN, true, tiny)).doesNotThrowAnyException();
        List<SizePlan> counted = List.of(new SizePlan(24, StoredLevel.COUNT, SizePlan.Action.COMPUTE));
        assertThatCode(() -> HeapCheck.check(counted, KNOWN, false, tiny))
                .as("a coordinator: its workers count")
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> HeapCheck.check(counted, KNOWN, true, tiny)).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void theHeapCountedOnIsTheEnginesLeastNeedBesideTheBase() {
        long least = HeapCheck.BASE + dev.nqueens.count.CountingEngine.heapBytesAtLeast(20);
        List<SizePlan> counted = List.of(new SizePlan(20, StoredLevel.COUNT, SizePlan.Action.COMPUTE));
        assertThatCode(() -> HeapCheck.check(counted, KNOWN, true, least)).doesNotThrowAnyException();
        assertThatThrownBy(() -> HeapCheck.check(counted, KNOWN, true, least - 1))
                .isInstanceOf(InvalidInputException.class);
        assertThat(dev.nqueens.count.CountingEngine.heapBytesAtLeast(20))
                .isLessThanOrEqualTo(dev.nqueens.count.CountingEngine.heapBytesNeeded(20, 1));
    }
}
