package dev.nqueens.settings;

import dev.nqueens.solver.StackBacktracker;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * A set of board sizes written as a list of sizes and ranges ({@code 1-12}, {@code 4,8,10-12}).
 * Sizes run from 1 to {@value #MAX}, the largest the counting engine counts
 * ({@code count.CountingEngine.MAX_COUNTED_SIZE}; a test keeps the two equal): beyond it the
 * pattern of half a board outgrows a 64-bit word. (n = 26 and 27 have published counts, out of
 * this engine's reach; from Q(29) on, a count would not fit the 64-bit integers either.)
 */
public record BoardSizes(List<Integer> sizes) {

    public static final int MIN = 1;
    public static final int MAX = 25;
    static final String ALLOWED = "sizes are whole numbers " + MIN + ".." + MAX
            + ", as a list and/or ascending ranges such as 1-12 or 4,8,10-12";

    public BoardSizes {
        sizes = List.copyOf(sizes);
    }

    /**
     * @throws IllegalArgumentException naming the bad part and what is allowed
     */
    public static BoardSizes parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty size list: " + ALLOWED);
        }
        BitSet chosen = new BitSet();
        for (String part : text.split(",", -1)) {
            String item = part.trim();
            int dash = item.indexOf('-', 1);
            int from = parseSize(item, dash < 0 ? item : item.substring(0, dash), text);
            int to = dash < 0 ? from : parseSize(item, item.substring(dash + 1), text);
            if (to < from) {
                throw new IllegalArgumentException(
                        "invalid size list '" + text + "': range " + item + " is descending; " + ALLOWED);
            }
            chosen.set(from, to + 1);
        }
        return new BoardSizes(chosen.stream().boxed().toList());
    }

    private static int parseSize(String item, String number, String text) {
        int size;
        try {
            size = Integer.parseInt(number.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "invalid size list '" + text + "': '" + item + "' is not a size; " + ALLOWED);
        }
        Optional<String> beyond = beyondTheEngine(size);
        if (beyond.isPresent()) {
            throw new IllegalArgumentException("invalid size list '" + text + "': " + beyond.get() + "; " + ALLOWED);
        }
        if (size < MIN || size > MAX) {
            throw new IllegalArgumentException(
                    "invalid size list '" + text + "': " + size + " is out of range; " + ALLOWED);
        }
        return size;
    }

    /**
     * "n=26 is beyond what the counting engine counts" for a board size above {@value #MAX} that a
     * board could still have; empty for any other number.
     */
    public static Optional<String> beyondTheEngine(int size) {
        return size > MAX && size <= StackBacktracker.MAX_SIZE
                ? Optional.of("n=" + size + " is beyond what the counting engine counts")
                : Optional.empty();
    }

    /** The given sizes. */
    public static BoardSizes of(java.util.Collection<Integer> sizes) {
        return new BoardSizes(sizes.stream().sorted().distinct().toList());
    }

    /** The canonical text form, ranges collapsed: {@code 1-4,8}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < sizes.size()) {
            int j = i;
            while (j + 1 < sizes.size() && sizes.get(j + 1) == sizes.get(j) + 1) {
                j++;
            }
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(sizes.get(i));
            if (j > i) {
                text.append('-').append(sizes.get(j));
            }
            i = j + 1;
        }
        return text.toString();
    }
}
