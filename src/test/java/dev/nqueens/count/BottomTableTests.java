package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

class BottomTableTests {

    @Test
    void transposeSwapsRowsAndColumns() {
        Random random = new Random(64);
        for (int trial = 0; trial < 20; trial++) {
            long[] matrix = new long[64];
            for (int i = 0; i < 64; i++) {
                matrix[i] = random.nextLong() & random.nextLong();
            }
            long[] transposed = Arrays.copyOf(matrix, 64);
            BottomTable.transpose(transposed);
            for (int row = 0; row < 64; row++) {
                for (int column = 0; column < 64; column++) {
                    assertEquals(matrix[row] >>> column & 1, transposed[column] >>> row & 1, row + "," + column);
                }
            }
        }
    }

    /** The ranks of the k-element subsets of 0..width-1 are exactly 0 .. C(width, k) - 1. */
    @Test
    void subsetRanksAreDense() {
        for (int width = 1; width <= 14; width++) {
            SubsetRank rank = new SubsetRank(width);
            for (int k = 0; k <= width; k++) {
                Set<Integer> seen = new HashSet<>();
                for (int set = 0; set < 1 << width; set++) {
                    if (Integer.bitCount(set) == k) {
                        int r = rank.of(set);
                        assertTrue(r >= 0 && r < SubsetRank.count(width, k), width + "/" + k + ": " + r);
                        assertTrue(seen.add(r), "rank " + r + " twice");
                    }
                }
                assertEquals(SubsetRank.count(width, k), seen.size());
            }
        }
        assertEquals(184_756, SubsetRank.count(20, 10));
    }

    @Test
    void rejectsSizesItCannotIndex() {
        assertThrows(IllegalArgumentException.class, () -> new BottomTable(3, 10, 256));
        assertThrows(IllegalArgumentException.class, () -> new BottomTable(BottomTable.MAX_SIZE + 1, 10, 256));
        assertThrows(IllegalArgumentException.class, () -> new BottomTable(10, 0, 256));
        assertThrows(IllegalArgumentException.class, () -> new BottomTable(10, 10, 100));
        assertThrows(IllegalArgumentException.class, () -> new BottomTable(10, 10, 2 * BottomTable.MAX_SETS_PER_PARTITION));
        assertThrows(IllegalArgumentException.class, () -> new SubsetRank(31));
    }
}
