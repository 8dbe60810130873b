package dev.nqueens.verify;

import dev.nqueens.board.Symmetry;
import dev.nqueens.solver.Placement;
import dev.nqueens.store.GenerationLoader;
import dev.nqueens.symmetry.ClassNumbers;
import dev.nqueens.symmetry.Reduction;
import dev.nqueens.symmetry.SymmetryReducer;
import dev.nqueens.verify.VerificationReport.Check;
import java.util.List;

/**
 * Verifies the stored rows of one board size as they stream past, classes first (in class
 * order), then solutions (in ordinal order). Keeps the previous row, the first problems of each
 * check and, when solutions follow, the classes' numbers ({@link ClassNumbers}: 8 bytes a class),
 * never a solution.
 *
 * <p>Three checks come out of it: {@code placements} (every text is a solution of size n, in the
 * product's form), {@code order} (ordinals and class ordinals dense from 1, placements strictly
 * increasing as column sequences) and {@code classes} (representatives, orbit sizes, symmetries,
 * each class's queens for the {@code solution_cell} view, each solution's class, orbit size and
 * transform (the symmetry from its representative) agree with the {@link SymmetryReducer}; and the
 * solutions are as many as the classes' orbits add up to, so with distinct valid solutions each
 * class has all its members). A row that is not a solution is reported under {@code placements}
 * only.
 */
final class SizeScan {

    private final int n;
    private final SymmetryReducer reducer;
    private final Findings placements;
    private final Findings order;
    private final Findings classes;
    private final Sequence classSequence = new Sequence("class ");
    private final Sequence solutionSequence = new Sequence("ordinal ");
    private final int[] image;
    private long classRows;
    private long solutionRows;
    private long members;
    private ClassNumbers numbers;

    SizeScan(int n) {
        this.n = n;
        this.reducer = new SymmetryReducer(n);
        this.image = new int[n];
        this.placements = new Findings("n=" + n + " placements");
        this.order = new Findings("n=" + n + " order");
        this.classes = new Findings("n=" + n + " classes");
    }

    /**
     * Keeps the classes' numbers, so that the solutions that follow can be checked for their class.
     *
     * @throws IllegalArgumentException if n is above {@value ClassNumbers#MAX_SIZE}
     */
    void withSolutions(long expectedClasses) {
        numbers = new ClassNumbers(n, expectedClasses);
    }

    /** One class row of the published generation, in class order, with its {@code cells}. */
    void acceptClass(long classOrdinal, String text, int orbitSize, String symmetry, String cells) {
        classRows++;
        members += orbitSize;
        String row = "n=" + n + " class " + classOrdinal;
        Placement representative = solution(text);
        classSequence.next(classOrdinal, representative, text);
        if (representative == null) {
            placements.add(row + ": '" + text + "' is not a solution");
            return;
        }
        if (numbers != null && numbers.count() == classOrdinal - 1) {
            try {
                numbers.add(representative.columns());
            } catch (IllegalStateException e) {
                // out of order: the order check names it
            }
        }
        if (!GenerationLoader.cells(text).equals(cells)) {
            classes.add(row + ": cells '" + cells + "' are not the queens of '" + text + "'");
        }
        Reduction reduction = reducer.reduce(representative);
        if (!reduction.isRepresentative(representative)) {
            classes.add(row + ": '" + text + "' is not the smallest of its images, '" + reduction.representative()
                    + "' is");
        } else if (reduction.orbitSize() != orbitSize) {
            classes.add(
                    row + ": orbit_size " + orbitSize + ", but the class has " + reduction.orbitSize() + " members");
        } else if (!reduction.symmetry().name().equals(symmetry)) {
            classes.add(row + ": symmetry " + symmetry + ", but the class's symmetry is " + reduction.symmetry());
        }
    }

    /** One solution row of the published generation, in ordinal order (after {@link #withSolutions} and the classes). */
    void acceptSolution(long ordinal, String text, long classOrdinal, int transform, int orbitSize) {
        solutionRows++;
        // Per row only what the checks need: the labels of the messages are made when there is one.
        Placement placement = solution(text);
        solutionSequence.next(ordinal, placement, text);
        if (placement == null) {
            placements.add(solutionRow(ordinal) + ": '" + text + "' is not a solution");
            return;
        }
        Reduction reduction = reducer.reduce(placement);
        Placement smallest = reduction.representative();
        long wanted = numbers.find(smallest.columns());
        if (classOrdinal != wanted) {
            classes.add(solutionRow(ordinal) + ": class " + classOrdinal + ", but its representative '" + smallest
                    + "' is " + (wanted == 0 ? "no stored class" : "class " + wanted));
        } else if (orbitSize != reduction.orbitSize()) {
            classes.add(solutionRow(ordinal) + ": orbit_size " + orbitSize + ", but its class has "
                    + reduction.orbitSize() + " members");
        } else if (transform < 0 || transform >= Symmetry.COUNT || !maps(transform, smallest, placement)) {
            classes.add(solutionRow(ordinal) + ": transform " + transform + " does not map the representative '"
                    + smallest + "' onto the solution");
        }
    }

    private String solutionRow(long ordinal) {
        return "n=" + n + " ordinal " + ordinal;
    }

    /** Whether symmetry {@code transform} maps {@code from} onto {@code to}. */
    private boolean maps(int transform, Placement from, Placement to) {
        Symmetry.image(transform, from.columns(), image);
        for (int row = 0; row < n; row++) {
            if (image[row] != to.column(row)) {
                return false;
            }
        }
        return true;
    }

    /** The three checks; {@code withSolutions} when the size stores every solution, not only its classes. */
    List<Check> checks(boolean withSolutions) {
        if (withSolutions && members != solutionRows) {
            classes.add(
                    "n=" + n + ": " + solutionRows + " solutions stored, but the classes' orbits add up to " + members);
        }
        String classCount = count(classRows, "class", "classes");
        String rows = withSolutions ? count(solutionRows, "solution", "solutions") + " and " + classCount : classCount;
        return List.of(
                placements.toCheck(rows + " valid"),
                order.toCheck(rows + " numbered densely in lexicographic order"),
                classes.toCheck(classCount + ": representatives, orbit sizes, symmetries"
                        + (withSolutions ? " and members" : "") + " right"));
    }

    private static String count(long count, String one, String many) {
        return count + " " + (count == 1 ? one : many);
    }

    /**
     * The placement if {@code text} is a solution of size n in the product's form (n columns from 1
     * to n in decimal without sign or leading zero, separated by single spaces), else null. Read
     * character by character: this runs for every stored row.
     */
    private Placement solution(String text) {
        if (text == null) {
            return null;
        }
        int[] columns = new int[n];
        int row = 0;
        int column = 0;
        int length = text.length();
        for (int i = 0; i <= length; i++) {
            char c = i < length ? text.charAt(i) : ' ';
            if (c == ' ') {
                if (column == 0 || row == n) {
                    return null; // an empty number (two spaces, or one at either end), or too many
                }
                columns[row++] = column - 1;
                column = 0;
            } else if (c >= '0' && c <= '9' && (column > 0 || c != '0')) {
                column = column * 10 + (c - '0');
                if (column > n) {
                    return null;
                }
            } else {
                return null;
            }
        }
        if (row != n) {
            return null;
        }
        Placement placement = new Placement(columns);
        return placement.isSolution() ? placement : null;
    }

    /**
     * The running check of one numbered sequence: numbers 1, 2, 3, ... and placements strictly
     * increasing. After a gap it continues from the number found, so one missing row is one problem.
     */
    private final class Sequence {

        private final String label;
        private long previousNumber;
        private Placement previous;
        private String previousText;
        private long previousNumberWithPlacement;

        Sequence(String label) {
            this.label = label;
        }

        void next(long number, Placement placement, String text) {
            if (number != previousNumber + 1) {
                order.add(
                        previousNumber == 0
                                ? "n=" + n + ": the first " + label + "is " + number + ", not 1"
                                : "n=" + n + ": " + label + number + " follows " + label + previousNumber);
            }
            previousNumber = number;
            if (placement == null) {
                return;
            }
            if (previous != null && placement.compareTo(previous) <= 0) {
                order.add("n=" + n + " " + label + number + ": '" + text + "' does not sort after " + label
                        + previousNumberWithPlacement + " '" + previousText + "'");
            }
            previous = placement;
            previousText = text;
            previousNumberWithPlacement = number;
        }
    }
}
