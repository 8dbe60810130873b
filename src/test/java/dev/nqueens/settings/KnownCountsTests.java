package dev.nqueens.settings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.Reference;
import org.junit.jupiter.api.Test;

class KnownCountsTests {

    @Test
    void theShippedCopyHoldsTheReferenceValues() {
        KnownCounts shipped = KnownCounts.load();
        for (Reference.Counts expected : Reference.counts()) {
            KnownCounts.Known known = shipped.of(expected.n()).orElseThrow();
            assertThat(known).isEqualTo(new KnownCounts.Known(expected.n(), expected.total(), expected.fundamental(),
                    expected.rot90(), expected.rot180(), expected.asymmetric()));
        }
        assertThat(shipped.of(27).orElseThrow().totalSolutions()).isEqualTo(234907967154122528L);
        assertThat(shipped.of(28)).isEmpty();
    }
}
