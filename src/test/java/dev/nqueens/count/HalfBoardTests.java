package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HalfBoardTests {

    /**
     * For every segment, column set and half, the groups hold exactly the patterns of the
     * placements a plain search of that half finds (one queen per free row, on the given columns,
     * off the middle queens' diagonals), filed under the rows of their left-quadrant queens; read
     * from the table and from searched quadrant cells alike.
     */
    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {4, 7, 8, 9})
    void groupsHoldThePatternsOfEveryHalfPlacement(int n) {
        int h = n / 2;
        QuadrantTable table = QuadrantTable.of(h);
        for (int way = 0; way < 3; way++) {
            // From the table, cell by cell or tabulated per segment, and from searched cells.
            QuadrantPatterns quadrants = way == 2 ? new QuadrantPatterns(n, new QuadrantSearch(h), null, false)
                    : new QuadrantPatterns(n, table.reader(), table, way == 1);
            HalfBoard board = new HalfBoard(n, quadrants);
            for (Segment segment : Segment.of(n)) {
                quadrants.use(segment);
                board.use(segment);
                for (int c = 0; c < 1 << 2 * h; c++) {
                    if ((c & ~segment.columns) != 0 || Integer.bitCount(c) != segment.topQueens()) {
                        continue;
                    }
                    for (boolean top : new boolean[] {true, false}) {
                        int columns = top ? c : segment.columns & ~c;
                        assertEquals(bySearch(segment, top, columns), byBoard(board, top, columns, h),
                                segment.describe() + (top ? " top " : " bottom ") + Integer.toBinaryString(columns));
                    }
                }
            }
        }
    }

    private static Map<Integer, List<Long>> byBoard(HalfBoard board, boolean top, int columns, int h) {
        int half = (1 << h) - 1;
        board.begin(top, columns & half, columns >>> h);
        int rows = board.rows();
        for (int left = rows;; left = (left - 1) & rows) {
            if (Integer.bitCount(left) == board.leftQueens()) {
                board.addGroup(left);
            }
            if (left == 0) {
                break;
            }
        }
        Map<Integer, List<Long>> groups = new HashMap<>();
        for (int g = 0; g < board.groups; g++) {
            List<Long> patterns = new ArrayList<>();
            for (int i = board.groupStart[g]; i < board.groupStart[g + 1]; i++) {
                patterns.add(board.patterns[i]);
            }
            patterns.sort(null);
            if (!patterns.isEmpty()) {
                groups.put(board.groupRows[g], patterns);
            }
        }
        return groups;
    }

    /** The half's placements by a plain search on the whole board's squares. */
    private static Map<Integer, List<Long>> bySearch(Segment segment, boolean top, int columns) {
        int n = segment.n;
        int h = segment.h;
        List<Integer> boardRows = new ArrayList<>();
        int localRows = top ? segment.topRows : segment.bottomRows;
        for (int r = 0; r < h; r++) {
            if ((localRows >>> r & 1) != 0) {
                boardRows.add(top ? r : r + segment.offset);
            }
        }
        Map<Integer, List<Long>> groups = new HashMap<>();
        search(segment, boardRows, 0, columns, 0L, 0L, 0, groups);
        groups.values().forEach(list -> list.sort(null));
        return groups;
    }

    private static void search(Segment segment, List<Integer> rows, int depth, int columnsLeft, long slashes,
            long backs, int leftRows, Map<Integer, List<Long>> groups) {
        int n = segment.n;
        int h = segment.h;
        if (depth == rows.size()) {
            groups.computeIfAbsent(leftRows, k -> new ArrayList<>()).add(pattern(segment, slashes, backs));
            return;
        }
        int row = rows.get(depth);
        for (int k = 0; k < 2 * h; k++) {
            if ((columnsLeft >>> k & 1) == 0) {
                continue;
            }
            int column = k < h ? k : k - h + segment.offset;
            long slash = 1L << (row + column);
            long back = 1L << (row - column + n - 1);
            if ((slashes & slash) != 0 || (backs & back) != 0 || (segment.occupiedSlash & slash) != 0
                    || (segment.occupiedBack & back) != 0) {
                continue;
            }
            int localRow = row < h ? row : row - segment.offset;
            search(segment, rows, depth + 1, columnsLeft & ~(1 << k), slashes | slash, backs | back,
                    k < h ? leftRows | 1 << localRow : leftRows, groups);
        }
    }

    /** The definition: bit 2i for "/" diagonal offset + i, bit 2i + 1 for "\" diagonal offset + i. */
    private static long pattern(Segment segment, long slashes, long backs) {
        long pattern = 0;
        for (int i = 0; i < 2 * segment.h - 1; i++) {
            int diagonal = segment.offset + i;
            pattern |= (slashes >>> diagonal & 1) << 2 * i | (backs >>> diagonal & 1) << 2 * i + 1;
        }
        return pattern;
    }
}
