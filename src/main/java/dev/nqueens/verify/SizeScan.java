package dev.nqueens.verify;

import dev.nqueens.solver.Placement;
import dev.nqueens.symmetry.Reduction;
import dev.nqueens.symmetry.SymmetryReducer;
import dev.nqueens.verify.VerificationReport.Check;
import java.util.List;

/**
 * Verifies the stored rows of one board size as they stream past, classes first (in class
 * order), then solutions (in ordinal order), then the classes whose member count is off. Keeps
 * only the previous row and the first problem of each check, so memory does not grow with the
 * size.
 *
 * <p>Three checks come out of it: {@code placements} (every text is a solution of size n, in the
 * product's form), {@code order} (ordinals and class ordinals dense from 1, placements strictly
 * increasing as column sequences) and {@code classes} (representatives, orbit sizes, symmetries
 * class members and each solution's transform (the symmetry from its representative) agree with
 * the {@link SymmetryReducer}). A row that is not a solution is
 * reported under {@code placements} only.
 */
final class SizeScan {

    private final int n;
    private final SymmetryReducer reducer;
    private final Findings placements;
    private final Findings order;
    private final Findings classes;
    private final Sequence classSequence = new Sequence("class ");
    private final Sequence solutionSequence = new Sequence("ordinal ");
    private long classRows;
    private long solutionRows;

    SizeScan(int n) {
        this.n = n;
        this.reducer = new SymmetryReducer(n);
        this.placements = new Findings("n=" + n + " placements");
        this.order = new Findings("n=" + n + " order");
        this.classes = new Findings("n=" + n + " classes");
    }

    /** One row of {@code fundamental_solution}, in class order. */
    void acceptClass(long classOrdinal, String text, int orbitSize, String symmetry) {
        classRows++;
        String row = "n=" + n + " class " + classOrdinal;
        Placement representative = solution(text);
        classSequence.next(classOrdinal, representative, text);
        if (representative == null) {
            placements.add(row + ": '" + text + "' is not a solution");
            return;
        }
        Reduction reduction = reducer.reduce(representative);
        if (!reduction.isRepresentative(representative)) {
            classes.add(row + ": '" + text + "' is not the smallest of its images, '"
                    + reduction.representative() + "' is");
        } else if (reduction.orbitSize() != orbitSize) {
            classes.add(row + ": orbit_size " + orbitSize + ", but the class has " + reduction.orbitSize()
                    + " members");
        } else if (!reduction.symmetry().name().equals(symmetry)) {
            classes.add(row + ": symmetry " + symmetry + ", but the class's symmetry is " + reduction.symmetry());
        }
    }

    /** One row of {@code stored_solution}, in ordinal order. */
    void acceptSolution(long ordinal, String text, String representative, int transform) {
        solutionRows++;
        String row = "n=" + n + " ordinal " + ordinal;
        Placement placement = solution(text);
        solutionSequence.next(ordinal, placement, text);
        if (placement == null) {
            placements.add(row + ": '" + text + "' is not a solution");
            return;
        }
        Placement smallest = reducer.reduce(placement).representative();
        if (!smallest.toString().equals(representative)) {
            classes.add(row + ": representative '" + representative + "', but the smallest image is '"
                    + smallest + "'");
        } else if (transform < 0 || transform > 7 || !reducer.image(transform, smallest).equals(placement)) {
            classes.add(row + ": transform " + transform + " does not map the representative '" + smallest
                    + "' onto the solution");
        }
    }

    /** A class whose stored member count (by SQL aggregation) differs from its orbit size. */
    void classMembersDiffer(long classOrdinal, long members, int orbitSize) {
        classes.add("n=" + n + " class " + classOrdinal + ": " + members + " solutions stored, orbit_size "
                + orbitSize);
    }

    /** The three checks; {@code withSolutions} when the size stores every solution, not only its classes. */
    List<Check> checks(boolean withSolutions) {
        String classCount = count(classRows, "class", "classes");
        String rows = withSolutions ? count(solutionRows, "solution", "solutions") + " and " + classCount
                : classCount;
        return List.of(
                placements.toCheck(rows + " valid"),
                order.toCheck(rows + " numbered densely in lexicographic order"),
                classes.toCheck(classCount + ": representatives, orbit sizes, symmetries"
                        + (withSolutions ? " and members" : "") + " right"));
    }

    private static String count(long count, String one, String many) {
        return count + " " + (count == 1 ? one : many);
    }

    /** The placement if {@code text} is a solution of size n in the product's form, else null. */
    private Placement solution(String text) {
        if (text == null) {
            return null;
        }
        try {
            Placement placement = Placement.parse(text);
            boolean valid = placement.size() == n && placement.isSolution() && placement.toString().equals(text);
            return valid ? placement : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
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
                order.add(previousNumber == 0
                        ? "n=" + n + ": the first " + label + "is " + number + ", not 1"
                        : "n=" + n + ": " + label + number + " follows " + label + previousNumber);
            }
            previousNumber = number;
            if (placement == null) {
                return;
            }
            if (previous != null && placement.compareTo(previous) <= 0) {
                order.add("n=" + n + " " + label + number + ": '" + text + "' does not sort after "
                        + label + previousNumberWithPlacement + " '" + previousText + "'");
            }
            previous = placement;
            previousText = text;
            previousNumberWithPlacement = number;
        }
    }
}
