package dev.nqueens.count;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How the engine counts on this host. The {@link DisjointPairs} matcher runs the items against a
 * pass of one or two words of 64 patterns, whose chunk tables must stay in the first-level data
 * cache with the items streaming past: two words where it holds both ({@code TWO_WORDS_FROM}),
 * one below. Its sieve cuts buckets of about 32 patterns per word of a pass, the size that counted
 * quickest against larger buckets (docs/engine.md). Quadrant placements are read from the shared {@link QuadrantTable}, or searched per
 * cell ({@link QuadrantSearch}) for a heap too small for the table. A layout changes how fast a
 * unit is counted, never what it counts: the list of work units does not depend on it.
 *
 * @param l1Bytes the first-level data cache per core this layout is chosen for
 * @param l2Bytes the second-level cache per core
 * @param wordsPerPass how many words of patterns the items are run against at once (1 or 2)
 * @param patternsPerBucket the patterns a sieve bucket aims at
 * @param searchQuadrants whether quadrant cells are searched instead of read from the table
 * @param source where the cache sizes came from
 */
record Layout(
        long l1Bytes, long l2Bytes, int wordsPerPass, int patternsPerBucket, boolean searchQuadrants, String source) {

    /** Assumed when the host does not say. */
    private static final long DEFAULT_L1 = 32 << 10;

    private static final long DEFAULT_L2 = 512 << 10;
    /** The first-level cache that holds a pass of two words' tables with the items. */
    private static final long TWO_WORDS_FROM = 32 << 10;

    private static volatile Layout forHost;

    /**
     * @throws IllegalArgumentException if a cache size or the bucket size is not positive
     */
    Layout {
        if (l1Bytes <= 0 || l2Bytes <= 0 || patternsPerBucket <= 0 || wordsPerPass < 1 || wordsPerPass > 2) {
            throw new IllegalArgumentException(
                    "layout for " + l1Bytes + " bytes of L1, " + l2Bytes + " of L2, buckets of " + patternsPerBucket);
        }
    }

    /** The layout for this host, from its cache sizes as Linux reports them (sysfs, else getconf); decided once. */
    static Layout forHost() {
        Layout layout = forHost;
        if (layout == null) {
            long[] l1 = new long[1];
            long[] l2 = new long[1];
            String source = cacheSize(1, "LEVEL1_DCACHE_SIZE", DEFAULT_L1, l1) + ", "
                    + cacheSize(2, "LEVEL2_CACHE_SIZE", DEFAULT_L2, l2);
            layout = forCaches(l1[0], l2[0], source);
            forHost = layout;
        }
        return layout;
    }

    /** The layout for a host with these cache sizes (for tests of hosts other than this one). */
    static Layout forCaches(long l1Bytes, long l2Bytes) {
        return forCaches(l1Bytes, l2Bytes, "given");
    }

    private static Layout forCaches(long l1Bytes, long l2Bytes, String source) {
        int words = l1Bytes >= TWO_WORDS_FROM ? 2 : 1;
        return new Layout(l1Bytes, l2Bytes, words, 32 * words, false, source);
    }

    /** This layout with quadrant cells searched instead of tabulated. */
    Layout searchingQuadrants() {
        return new Layout(l1Bytes, l2Bytes, wordsPerPass, patternsPerBucket, true, source);
    }

    /** This layout with sieve buckets of {@code patterns} patterns (for tests of every sieve depth). */
    Layout withBuckets(int patterns) {
        return new Layout(l1Bytes, l2Bytes, wordsPerPass, patterns, searchQuadrants, source);
    }

    /** One line for the log: the cache sizes, where they came from, and what they decided. */
    String describe() {
        return String.format(
                Locale.ROOT,
                "L1d %d KB, L2 %d KB per core (%s): %d word(s) of patterns per pass,"
                        + " sieve buckets of %d patterns%s",
                l1Bytes >> 10,
                l2Bytes >> 10,
                source,
                wordsPerPass,
                patternsPerBucket,
                searchQuadrants ? ", quadrants searched" : "");
    }

    /** Fills {@code size[0]} with the data or unified cache of {@code level} and returns where it came from. */
    private static String cacheSize(int level, String getconfName, long fallback, long[] size) {
        Path caches = Path.of("/sys/devices/system/cpu/cpu0/cache");
        for (int index = 0; index < 8; index++) {
            Path dir = caches.resolve("index" + index);
            try {
                if (Files.readString(dir.resolve("level")).trim().equals(Integer.toString(level))
                        && !Files.readString(dir.resolve("type")).trim().equals("Instruction")) {
                    size[0] = parseSize(Files.readString(dir.resolve("size")).trim());
                    return "sysfs";
                }
            } catch (IOException | NumberFormatException e) {
                // Not there (or not readable): try the next index, then getconf.
            }
        }
        try {
            Process getconf = new ProcessBuilder("getconf", getconfName)
                    .redirectErrorStream(true)
                    .start();
            String out = new String(getconf.getInputStream().readAllBytes()).trim();
            if (getconf.waitFor() == 0 && !out.isEmpty() && Long.parseLong(out) > 0) {
                size[0] = Long.parseLong(out);
                return "getconf";
            }
        } catch (IOException | NumberFormatException e) {
            // No getconf, or it does not know: the default below.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        size[0] = fallback;
        return "unknown, assumed";
    }

    /** Reads sysfs sizes such as {@code 1024K} or {@code 1M}. */
    static long parseSize(String text) {
        char unit = Character.toUpperCase(text.charAt(text.length() - 1));
        long scale = unit == 'K' ? 1 << 10 : unit == 'M' ? 1 << 20 : unit == 'G' ? 1L << 30 : 1;
        String digits = scale == 1 ? text : text.substring(0, text.length() - 1);
        return Long.parseLong(digits) * scale;
    }
}
