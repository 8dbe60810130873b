package dev.nqueens.count;

/**
 * Running counts of a unit. The class counts are kept times 8: a pair whose orbit meets the
 * counted column set twice or four times adds a half or a quarter of its classes, and only the
 * sum over the column set is whole ({@link #addWhole}).
 */
final class Tally {

    long total;
    long asymmetricTimes8;
    long halfTurnTimes8;
    long quarterTurnTimes8;
    private long asymmetric;
    private long halfTurn;
    private long quarterTurn;

    /**
     * Adds the counts of one pair of the board: {@code solutions} of its solutions, of which
     * {@code halfTurnFixed} the half turn leaves unchanged, {@code quarterTurnFixed} the quarter
     * turn too; each stands for {@code block.weight()} solutions of the board.
     */
    void add(PairSymmetry.Block block, long solutions, long halfTurnFixed, long quarterTurnFixed) {
        long weight = block.weight();
        total = Math.addExact(total, Math.multiplyExact(weight, solutions));
        asymmetricTimes8 = Math.addExact(asymmetricTimes8, weight * (solutions - halfTurnFixed));
        halfTurnTimes8 = Math.addExact(halfTurnTimes8, 2 * weight * (halfTurnFixed - quarterTurnFixed));
        quarterTurnTimes8 = Math.addExact(quarterTurnTimes8, weight * block.stabilizer() * quarterTurnFixed);
    }

    /**
     * Moves the eighths counted so far into whole classes: called after each column set, whose
     * pairs together hold whole orbits.
     *
     * @throws IllegalStateException if they are not whole (which would be a bug)
     */
    void addWhole(String what) {
        if (asymmetricTimes8 % 8 != 0 || halfTurnTimes8 % 8 != 0 || quarterTurnTimes8 % 8 != 0) {
            throw new IllegalStateException("classes are not whole after " + what + ": " + asymmetricTimes8 + "/8, "
                    + halfTurnTimes8 + "/8, " + quarterTurnTimes8 + "/8");
        }
        asymmetric = Math.addExact(asymmetric, asymmetricTimes8 / 8);
        halfTurn = Math.addExact(halfTurn, halfTurnTimes8 / 8);
        quarterTurn = Math.addExact(quarterTurn, quarterTurnTimes8 / 8);
        asymmetricTimes8 = 0;
        halfTurnTimes8 = 0;
        quarterTurnTimes8 = 0;
    }

    /** The counts so far, as a result. */
    CountResult result() {
        return new CountResult(
                total,
                Math.addExact(Math.addExact(quarterTurn, halfTurn), asymmetric),
                quarterTurn,
                halfTurn,
                asymmetric);
    }
}
