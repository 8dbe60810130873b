package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BinomialTests {

    @Test
    void ranksSetsInAscendingOrder() {
        for (int m = 1; m <= 12; m++) {
            for (int k = 1; k <= m; k++) {
                int set = (1 << k) - 1;
                for (long i = 0; i < Binomial.of(m, k); i++) {
                    assertEquals(set, Binomial.unrank(i, k), m + " choose " + k + " #" + i);
                    set = Binomial.nextSameCount(set);
                }
                assertTrue(set >= 1 << m, "after the last set of " + m + " choose " + k);
            }
        }
        assertEquals(184_756, Binomial.of(20, 10));
        assertEquals(0, Binomial.of(3, 4));
    }
}
