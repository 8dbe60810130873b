package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nqueens.board.Symmetry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SegmentTests {

    /**
     * The segments of an odd board cover every position of the middle queens once: the centre,
     * and the 8 images of each canonical pair, all distinct.
     */
    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {5, 7, 9, 11, 17})
    void oddBoardsSplitByTheMiddleQueens(int n) {
        int h = n / 2;
        List<Segment> segments = Segment.of(n);
        assertTrue(segments.get(0).symmetric);
        Set<Integer> covered = new HashSet<>();
        for (Segment segment : segments.subList(1, segments.size())) {
            assertTrue(
                    segment.queenRows != 0 && segment.queenRows < 1 << h && (segment.queenRows & 1) == 0,
                    segment.describe());
            for (int rows = segment.queenRows; rows != 0; rows &= rows - 1) {
                int b = Integer.numberOfTrailingZeros(rows);
                for (int g = 0; g < Symmetry.COUNT; g++) {
                    int first = Symmetry.square(n, g, h, segment.queenColumn);
                    int second = Symmetry.square(n, g, b, h);
                    int inRow = first >> 8 == h ? first : second;
                    int inColumn = first >> 8 == h ? second : first;
                    assertTrue(covered.add((inRow & 0xff) * 64 + (inColumn >> 8)), segment.describe() + " image " + g);
                }
            }
        }
        int valid = 0;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (a != h && b != h && Math.abs(a - h) != Math.abs(b - h)) {
                    valid++;
                    assertTrue(covered.contains(a * 64 + b), a + "," + b);
                }
            }
        }
        assertEquals(valid, covered.size());
    }

    /** Tasks ascend, and walking them one after the other gives the same sets as looking each up. */
    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {8, 9, 12, 13})
    void tasksAscendAndWalkInOrder(int n) {
        for (Segment segment : Segment.of(n)) {
            int previous = -1;
            int walked = segment.columnSet(0);
            for (int t = 0; t < segment.tasks(); t++) {
                int set = segment.columnSet(t);
                assertEquals(set, walked, segment.describe() + " task " + t);
                assertTrue(set > previous);
                assertEquals(segment.topQueens(), Integer.bitCount(set));
                assertEquals(0, set & ~segment.columns);
                if (segment.symmetric) {
                    assertEquals(set, new PairSymmetry(2 * segment.h).orbitMin(set));
                }
                previous = set;
                if (t + 1 < segment.tasks()) {
                    walked = segment.nextColumnSet(t, set);
                }
            }
        }
    }
}
