package dev.nqueens.settings;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which storage level each board size gets: every solution up to {@code allUpTo}, only the class
 * representatives up to {@code fundamentalUpTo}, counts only beyond. The levels nest: a size stored
 * with every solution keeps its representatives too, so a {@code fundamentalUpTo} below
 * {@code allUpTo} is taken as {@code allUpTo} ({@code --store-all-up-to 16} alone stores the
 * representatives of 16 as well).
 *
 * @param allUpTo the largest size stored with every solution (0 = none)
 * @param fundamentalUpTo the largest size stored with its class representatives, at least {@code allUpTo}
 */
public record StorageLimits(int allUpTo, int fundamentalUpTo) {

    private static final Pattern TEXT = Pattern.compile("ALL<=(\\d+),FUNDAMENTAL<=(\\d+)");

    /**
     * @throws IllegalArgumentException if a limit is negative or above {@value BoardSizes#MAX}
     */
    public StorageLimits {
        checkLimit("all-up-to", allUpTo);
        checkLimit("fundamental-up-to", fundamentalUpTo);
        fundamentalUpTo = Math.max(fundamentalUpTo, allUpTo);
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

    /** The limits as {@link #toString} writes them ({@code ALL<=13,FUNDAMENTAL<=15}). */
    public static StorageLimits parse(String text) {
        Matcher matcher = TEXT.matcher(text == null ? "" : text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not storage limits: '" + text + "'");
        }
        return new StorageLimits(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)));
    }

    @Override
    public String toString() {
        return "ALL<=" + allUpTo + ",FUNDAMENTAL<=" + fundamentalUpTo;
    }
}
