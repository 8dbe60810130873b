package dev.nqueens.settings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.Reference;
import org.junit.jupiter.api.Test;

class KnownCountsTests {

    /** Asymmetric classes for n = 1..26, OEIS A260320: a published check of how {@link Reference} splits the classes. */
    private static final long[] A260320 = {
        0,
        0,
        0,
        0,
        1,
        0,
        4,
        11,
        42,
        89,
        329,
        1765,
        9197,
        45647,
        284743,
        1846189L,
        11975869L,
        83259065L,
        621001708L,
        4878630533L,
        39333230881L,
        336375931369L,
        3029241762900L,
        28439270037332L,
        275986675209470L,
        2789712437580722L
    };

    @Test
    void theShippedCountsAreThePublishedOnes() {
        KnownCounts shipped = KnownCounts.load();
        for (Reference.Counts expected : Reference.counts()) {
            KnownCounts.Known known = shipped.of(expected.n()).orElseThrow();
            assertThat(known)
                    .isEqualTo(new KnownCounts.Known(
                            expected.n(),
                            expected.total(),
                            expected.fundamental(),
                            expected.rot90(),
                            expected.rot180(),
                            expected.asymmetric()));
        }
        assertThat(shipped.of(8).orElseThrow().counts()).isEqualTo(new ClassCounts(92, 12, 0, 1, 11));
        assertThat(shipped.of(27).orElseThrow().totalSolutions()).isEqualTo(234907967154122528L);
        assertThat(shipped.of(27).orElseThrow().fundamentalSolutions()).isEqualTo(29363495934315694L);
        assertThat(shipped.of(0)).isEmpty();
        assertThat(shipped.of(28)).isEmpty();
    }

    @Test
    void theSplitBySymmetryAgreesWithThePublishedAsymmetricClasses() {
        for (int n = 1; n <= A260320.length; n++) {
            Reference.Counts counts = Reference.counts(n);
            assertThat(counts.asymmetric()).as("n = %d", n).isEqualTo(A260320[n - 1]);
            assertThat(counts.rot90() + counts.rot180() + counts.asymmetric())
                    .as("n = %d", n)
                    .isEqualTo(counts.fundamental());
        }
        for (Reference.Counts counts : Reference.counts().subList(1, 27)) {
            assertThat(2 * counts.rot90() + 4 * counts.rot180() + 8 * counts.asymmetric())
                    .as("n = %d", counts.n())
                    .isEqualTo(counts.total());
        }
    }
}
