package dev.nqueens.settings;


/**
 * Which storage level each board size gets: every solution up to {@code allUpTo}, only the class
 * representatives up to {@code fundamentalUpTo}, counts only beyond.
 *
 * @param allUpTo the largest size stored with every solution (0 = none)
 * @param fundamentalUpTo the largest size stored with its class representatives
 */
public record StorageLimits(int allUpTo, int fundamentalUpTo) {

    /**
     * @throws IllegalArgumentException if a limit is negative, above {@value BoardSizes#MAX}, or
     *     {@code allUpTo > fundamentalUpTo}
     */
    public StorageLimits {
        checkLimit("all-up-to", allUpTo);
        checkLimit("fundamental-up-to", fundamentalUpTo);
        if (allUpTo > fundamentalUpTo) {
            throw new IllegalArgumentException("storage limit all-up-to=" + allUpTo + " is above fundamental-up-to="
                    + fundamentalUpTo + ": sizes stored with every solution also store their representatives");
        }
    }

    private static void checkLimit(String name, int value) {
        if (value < 0 || value > BoardSizes.MAX) {
            throw new IllegalArgumentException("storage limit " + name + "=" + value + " is outside 0.."
                    + BoardSizes.MAX + " (the largest size that can be counted)");
        }
    }

    public StoredLevel levelOf(int n) {
        if (n <= allUpTo) {
            return StoredLevel.ALL;
        }
        return n <= fundamentalUpTo ? StoredLevel.FUNDAMENTAL : StoredLevel.COUNT;
    }

    @Override
    public String toString() {
        return "ALL<=" + allUpTo + ",FUNDAMENTAL<=" + fundamentalUpTo;
    }
}
