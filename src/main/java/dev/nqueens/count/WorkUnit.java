package dev.nqueens.count;

/**
 * One independently countable piece of a board size: the canonical start constellations at
 * positions {@code first .. first+count-1} of the size's deterministic order. The counts of all
 * units of {@link CountingEngine#workUnits(int)} add up to the size's counts.
 *
 * @param n the board size
 * @param index the position of the unit in {@link CountingEngine#workUnits(int)}
 * @param first the position of the unit's first constellation
 * @param count how many constellations the unit covers
 * @param cost the unit's estimated relative cost, the same on every host (a sum of search-tree
 *     estimates, see {@link CountingEngine#workUnits(int)}): what units are ordered and progress
 *     is weighed by
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

    /** The unit as a short text, {@code n:index:first:count:cost}, read back by {@link #decode}. */
    public String encode() {
        return n + ":" + index + ":" + first + ":" + count + ":" + cost;
    }

    /**
     * Reads a unit written by {@link #encode()}.
     *
     * @throws IllegalArgumentException if {@code text} is not five colon-separated numbers or
     *     they do not make a valid unit
     */
    public static WorkUnit decode(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 5) {
            throw new IllegalArgumentException("not a work unit: '" + text + "'");
        }
        try {
            return new WorkUnit(
                    Integer.parseInt(parts[0]),
                    Integer.parseInt(parts[1]),
                    Integer.parseInt(parts[2]),
                    Integer.parseInt(parts[3]),
                    Long.parseLong(parts[4]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a work unit: '" + text + "'", e);
        }
    }
}
