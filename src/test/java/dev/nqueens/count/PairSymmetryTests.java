package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PairSymmetryTests {

    /**
     * Each symmetry maps the pair of a solution to the pair of the solution's image: checked on
     * every solution of an even board and on those of an odd board with a queen at the centre.
     */
    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {8, 10, 9, 13})
    void imagesOfPairsAreThePairsOfImages(int n) {
        int h = n / 2;
        PairSymmetry symmetry = new PairSymmetry(2 * h);
        List<int[]> solutions = solutions(n);
        assertTrue(solutions.size() > 0);
        for (int[] columns : solutions) {
            if (n % 2 == 1 && columns[h] != h) {
                continue;
            }
            long pair = pairOf(n, columns);
            for (int g = 0; g < PairSymmetry.COUNT; g++) {
                assertEquals(
                        pairOf(n, image(n, g, columns)),
                        symmetry.image(g, (int) (pair >>> 32), (int) pair),
                        "symmetry " + g);
            }
        }
    }

    /** Symmetry g of {@link PairSymmetry#image}, applied to the squares of a solution. */
    private static int[] image(int n, int g, int[] columns) {
        int m = n - 1;
        int[] image = new int[n];
        for (int r = 0; r < n; r++) {
            int c = columns[r];
            int[] square = switch (g) {
                case 0 -> new int[] {r, c};
                case 1 -> new int[] {m - r, c};
                case 2 -> new int[] {r, m - c};
                case 3 -> new int[] {m - r, m - c};
                case 4 -> new int[] {c, r};
                case 5 -> new int[] {c, m - r};
                case 6 -> new int[] {m - c, r};
                default -> new int[] {m - c, m - r};
            };
            image[square[0]] = square[1];
        }
        return image;
    }

    /** (C, L) of a solution: columns of the top half's queens, rows of the left half's, middle lines left out. */
    private static long pairOf(int n, int[] columns) {
        int h = n / 2;
        int c = 0;
        int l = 0;
        for (int row = 0; row < n; row++) {
            int column = columns[row];
            if (n % 2 == 1 && (row == h || column == h)) {
                continue;
            }
            int r = n % 2 == 1 && row > h ? row - 1 : row;
            int k = n % 2 == 1 && column > h ? column - 1 : column;
            if (r < h) {
                c |= 1 << k;
            }
            if (k < h) {
                l |= 1 << r;
            }
        }
        return (long) c << 32 | l;
    }

    static List<int[]> solutions(int n) {
        List<int[]> found = new ArrayList<>();
        place(n, 0, new int[n], 0, 0L, 0L, found);
        return found;
    }

    private static void place(int n, int row, int[] columns, int used, long slashes, long backs, List<int[]> found) {
        if (row == n) {
            found.add(columns.clone());
            return;
        }
        for (int c = 0; c < n; c++) {
            long slash = 1L << (row + c);
            long back = 1L << (row - c + n - 1);
            if ((used >>> c & 1) == 0 && (slashes & slash) == 0 && (backs & back) == 0) {
                columns[row] = c;
                place(n, row + 1, columns, used | 1 << c, slashes | slash, backs | back, found);
            }
        }
    }

    @Test
    void orbitMinimaAndStabilizers() {
        PairSymmetry symmetry = new PairSymmetry(8);
        int c = 0b00110101;
        assertEquals(
                Math.min(
                        Math.min(c, symmetry.complement(c)),
                        Math.min(symmetry.reverse(c), symmetry.complement(symmetry.reverse(c)))),
                symmetry.orbitMin(c));
        assertEquals(0b10101100, symmetry.reverse(c));
        assertEquals(1, symmetry.columnStabilizer(0b00111001));
        assertEquals(2, symmetry.columnStabilizer(0b10011001), "its own reverse");
        assertEquals(2, symmetry.columnStabilizer(0b00001111), "the complement of its reverse");
        // (C, C) with C the complement of its reverse: the half turn, the transpose and the
        // anti-transpose map it onto itself, and four symmetries keep its columns.
        PairSymmetry.Block block = symmetry.analyse(0b00001111, 0b00001111);
        assertEquals(new PairSymmetry.Block(2, 4, true, false), block);
        assertEquals(new PairSymmetry.Block(8, 1, false, false), symmetry.analyse(0b00111001, 0b01010101));
    }
}
