package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class QuadrantTableTests {

    /** The table holds every placement once, as many as the engine's own stated counts, and each cell's as a search finds them. */
    @Test
    void holdsEveryPlacementOfEachCell() {
        for (int h = 1; h <= 8; h++) {
            QuadrantTable table = QuadrantTable.of(h);
            assertEquals(QuadrantTable.placements(h), table.diagonals.length, "side " + h);
            QuadrantSearch search = new QuadrantSearch(h);
            QuadrantSource reader = table.reader();
            long total = 0;
            for (int rows = 0; rows < 1 << h; rows++) {
                for (int columns = 0; columns < 1 << h; columns++) {
                    if (Integer.bitCount(rows) != Integer.bitCount(columns)) {
                        continue;
                    }
                    reader.select(rows, columns);
                    search.select(rows, columns);
                    long[] fromTable = Arrays.copyOfRange(reader.array(), reader.from(), reader.to());
                    long[] searched = Arrays.copyOfRange(search.array(), search.from(), search.to());
                    Arrays.sort(fromTable);
                    Arrays.sort(searched);
                    assertEquals(Arrays.toString(searched), Arrays.toString(fromTable), "cell " + rows + "/" + columns);
                    total += searched.length;
                }
            }
            assertEquals(QuadrantTable.placements(h), total);
        }
    }

    /** A queen on (r, c) of a 3×3 square: "/" diagonal r + c at bit 2(r + c), "\" r - c + 2 at bit 2(r - c + 2) + 1. */
    @Test
    void interleavesTheTwoDirections() {
        QuadrantSource reader = QuadrantTable.of(3).reader();
        reader.select(0b010, 0b100);
        assertEquals(1, reader.to() - reader.from());
        assertEquals(1L << 2 * 3 | 1L << 2 * 1 + 1, reader.array()[reader.from()]);
    }

    /** The stated counts per number of queens are the table's, and add up to its size. */
    @Test
    void countsPlacementsByQueens() {
        for (int h = 1; h <= 10; h++) {
            QuadrantTable table = QuadrantTable.of(h);
            long[] byQueens = new long[h + 1];
            for (int cell = 0; cell < 1 << 2 * h; cell++) {
                byQueens[Integer.bitCount(cell & ((1 << h) - 1))] += table.start[cell + 1] - table.start[cell];
            }
            assertEquals(Arrays.toString(byQueens), Arrays.toString(TaskCost.placementsWith(h)), "side " + h);
        }
        for (int h = 11; h <= QuadrantTable.MAX_SIDE; h++) {
            assertEquals(
                    QuadrantTable.placements(h),
                    Arrays.stream(TaskCost.placementsWith(h)).sum(),
                    "side " + h);
        }
    }

    @Test
    void knowsItsSizeWithoutBuildingIt() {
        assertEquals(7_535_369, QuadrantTable.placements(10));
        assertEquals(8L * 66_807_234 + 4L * ((1 << 22) + 1), QuadrantTable.bytes(11));
        assertThrows(IllegalArgumentException.class, () -> QuadrantTable.of(QuadrantTable.MAX_SIDE + 1));
        assertThrows(IllegalArgumentException.class, () -> QuadrantTable.placements(0));
    }
}
