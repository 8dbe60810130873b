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
     * off the middle row's queen's diagonals), filed under the rows of their left-quadrant queens;
     * off the centre the top half holds them for every row of the middle column's queen, that
     * queen's diagonals in each pattern. Read from the table and from searched quadrant cells alike.
     */
    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {4, 7, 8, 9})
    void groupsHoldThePatternsOfEveryHalfPlacement(int n) {
        int h = n / 2;
        QuadrantTable table = QuadrantTable.of(h);
        for (boolean searched : new boolean[] {false, true}) {
            QuadrantPatterns quadrants = new QuadrantPatterns(n, searched ? new QuadrantSearch(h) : table.reader());
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
                        assertEquals(
                                bySearch(segment, top, columns),
                                byBoard(board, segment, top, columns, h),
                                segment.describe() + (top ? " top " : " bottom ") + Integer.toBinaryString(columns));
                    }
                }
            }
        }
    }

    /** The groups as the engine builds them; off the centre the top half's groups merged (key -1). */
    private static Map<Integer, List<Long>> byBoard(HalfBoard board, Segment segment, boolean top, int columns, int h) {
        int half = (1 << h) - 1;
        board.begin(top, columns & half, columns >>> h);
        boolean merged = top && !segment.symmetric;
        for (int b = 0; b < h; b++) {
            if (merged && (segment.queenRows >>> b & 1) == 0 || !merged && b > 0) {
                continue;
            }
            int rows = merged ? board.rows() & ~(1 << b) : board.rows();
            for (int left = rows; ; left = (left - 1) & rows) {
                if (Integer.bitCount(left) == board.leftQueens()) {
                    board.addGroup(rows, left, merged ? segment.queenPattern(b) : 0);
                }
                if (left == 0) {
                    break;
                }
            }
        }
        Map<Integer, List<Long>> groups = new HashMap<>();
        for (int g = 0; g < board.groups; g++) {
            List<Long> patterns = groups.computeIfAbsent(merged ? -1 : board.groupRows[g], k -> new ArrayList<>());
            for (int i = board.groupStart[g]; i < board.groupStart[g + 1]; i++) {
                patterns.add(board.patterns[i]);
            }
        }
        groups.values().removeIf(List::isEmpty);
        groups.values().forEach(list -> list.sort(null));
        return groups;
    }

    /** The half's placements by a plain search on the whole board's squares. */
    private static Map<Integer, List<Long>> bySearch(Segment segment, boolean top, int columns) {
        int n = segment.n;
        int h = segment.h;
        boolean merged = top && !segment.symmetric;
        Map<Integer, List<Long>> groups = new HashMap<>();
        for (int b = 0; b < h; b++) {
            if (merged && (segment.queenRows >>> b & 1) == 0 || !merged && b > 0) {
                continue;
            }
            List<Integer> boardRows = new ArrayList<>();
            for (int r = 0; r < h; r++) {
                if (!merged || r != b) {
                    boardRows.add(top ? r : r + segment.offset);
                }
            }
            // The middle column's queen (b, h) with the top half's queens, off the centre.
            long slashes = merged ? 1L << (b + h) : 0;
            long backs = merged ? 1L << (b - h + n - 1) : 0;
            Map<Integer, List<Long>> found = new HashMap<>();
            search(segment, boardRows, 0, columns, slashes, backs, 0, found);
            for (Map.Entry<Integer, List<Long>> group : found.entrySet()) {
                groups.computeIfAbsent(merged ? -1 : group.getKey(), k -> new ArrayList<>())
                        .addAll(group.getValue());
            }
        }
        groups.values().forEach(list -> list.sort(null));
        return groups;
    }

    private static void search(
            Segment segment,
            List<Integer> rows,
            int depth,
            int columnsLeft,
            long slashes,
            long backs,
            int leftRows,
            Map<Integer, List<Long>> groups) {
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
            if ((slashes & slash) != 0
                    || (backs & back) != 0
                    || (segment.occupiedSlash & slash) != 0
                    || (segment.occupiedBack & back) != 0) {
                continue;
            }
            int localRow = row < h ? row : row - segment.offset;
            search(
                    segment,
                    rows,
                    depth + 1,
                    columnsLeft & ~(1 << k),
                    slashes | slash,
                    backs | back,
                    k < h ? leftRows | 1 << localRow : leftRows,
                    groups);
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
