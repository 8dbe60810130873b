package dev.nqueens.count;

/**
 * One independently countable piece of a board size: the tasks (column sets, see {@code UnitPlan})
 * at positions {@code first .. first+count-1} of the size's deterministic task list. The counts of
 * all units of {@link CountingEngine#workUnits(int)} add up to the size's counts.
 *
 * @param n the board size
 * @param index the position of the unit in {@link CountingEngine#workUnits(int)}
 * @param first the position of the unit's first task
 * @param count how many tasks the unit covers
 * @param cost the unit's estimated relative cost, the same on every host (a sum of the tasks'
 *     {@code TaskCost}): what units are ordered and progress is weighed by
 */
public record WorkUnit(int n, int index, int first, int count, long cost) {

    /**
     * @throws IllegalArgumentException if {@code n} is outside {@code 1..32} or a position, count
     *     or cost is negative
     */
    public WorkUnit {
        if (n < 1 || n > 32) {
            throw new IllegalArgumentException("board size " + n + " is outside 1..32");
        }
        if (index < 0 || first < 0 || count < 0 || cost < 0) {
            throw new IllegalArgumentException("negative position or cost in unit " + index + " of size " + n);
        }
    }

    /** The unit as a short text, {@code n:index:first:count:cost}, for messages. */
    public String encode() {
        return n + ":" + index + ":" + first + ":" + count + ":" + cost;
    }
}
