package dev.nqueens.count;

/**
 * The counts of a board size, or of a part of it: all solutions, fundamental solutions (symmetry
 * classes) and the classes split by their symmetry. A class unchanged by a quarter turn has 2
 * solutions, one unchanged only by a half turn has 4, an asymmetric one has 8 (n = 1 is the one
 * class of a single solution, counted under {@code rot90Classes}).
 *
 * @param total all solutions, Q(n)
 * @param fundamental symmetry classes, U(n) = rot90Classes + rot180Classes + asymmetricClasses
 * @param rot90Classes classes unchanged by the 90° rotation
 * @param rot180Classes classes unchanged by the 180° rotation but not the 90° one
 * @param asymmetricClasses classes with 8 distinct solutions
 */
public record CountResult(long total, long fundamental, long rot90Classes, long rot180Classes, long asymmetricClasses) {

    /** Nothing counted yet: the neutral element of {@link #plus}. */
    public static final CountResult ZERO = new CountResult(0, 0, 0, 0, 0);

    /**
     * @throws IllegalArgumentException if a count is negative or the classes do not add up to
     *     {@code fundamental}
     */
    public CountResult {
        if (total < 0 || rot90Classes < 0 || rot180Classes < 0 || asymmetricClasses < 0) {
            throw new IllegalArgumentException("negative count in " + total + "/" + fundamental + "/" + rot90Classes
                    + "/" + rot180Classes + "/" + asymmetricClasses);
        }
        if (fundamental != rot90Classes + rot180Classes + asymmetricClasses) {
            throw new IllegalArgumentException("classes " + rot90Classes + "+" + rot180Classes + "+" + asymmetricClasses
                    + " do not add up to " + fundamental);
        }
    }

    /**
     * The counts of two disjoint parts taken together.
     *
     * @throws ArithmeticException if a sum does not fit in a long (Q(n) does up to n = 28)
     */
    public CountResult plus(CountResult other) {
        return new CountResult(
                Math.addExact(total, other.total),
                Math.addExact(fundamental, other.fundamental),
                Math.addExact(rot90Classes, other.rot90Classes),
                Math.addExact(rot180Classes, other.rot180Classes),
                Math.addExact(asymmetricClasses, other.asymmetricClasses));
    }
}
