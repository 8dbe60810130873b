package dev.nqueens.count;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How the engine searches on this host: how many rows its bottom tables cover at each size and
 * how large a table may grow. A layout changes how fast a unit is counted, never what a unit
 * counts: the list of work units does not depend on it.
 *
 * <p>The rows per size were measured fastest on a host with 1 MB of L2 per core (n = 17: 6 rows,
 * 7 took the same; n = 18: 7 rows, 6 took 10% longer; n = 19 and 20: 6 rows, 7 took 3% and 25%
 * longer). A host with less L2 keeps one row fewer from n = 18 on (tables about 5 times smaller):
 * a lookup reads a few hundred bytes of one table group, and smaller tables keep more groups in
 * the cache. The largest table is bounded by the heap: each counting thread holds one, and its
 * build needs about 16 bytes per entry; a group whose table would be larger is searched with fewer
 * table rows.
 *
 * @param l2Bytes the L2 cache per core this layout is chosen for
 * @param maxTableEntries the most entries a table may have
 * @param fixedTableRows the table rows at every size (for tests), or -1 for the rows by size and
 *     cache
 * @param source where the cache size came from
 */
record Layout(long l2Bytes, int maxTableEntries, int fixedTableRows, String source) {

    /** From this much L2 per core on, the larger tables pay. */
    static final long LARGE_L2 = 1 << 20;
    /** Assumed when the host does not say. */
    private static final long DEFAULT_L2 = 512 << 10;
    /** Bytes of heap per table entry: a long while the table is built, and its share of the bits. */
    private static final int BYTES_PER_ENTRY = 16;
    private static final int MIN_TABLE_ENTRIES = 1 << 16;
    private static final int MAX_TABLE_ENTRIES = 1 << 24;

    private static volatile Layout forHost;

    /**
     * @throws IllegalArgumentException if the L2 size or the entry limit is not positive, or the
     *     fixed rows are 1 or below -1
     */
    Layout {
        if (l2Bytes <= 0 || maxTableEntries <= 0 || fixedTableRows < -1 || fixedTableRows == 1) {
            throw new IllegalArgumentException("layout for " + l2Bytes + " bytes of L2, tables of "
                    + maxTableEntries + " entries and " + fixedTableRows + " rows");
        }
    }

    /**
     * The layout for this host: its L2 size per core as Linux reports it (sysfs, else
     * {@code getconf}), and tables bounded by a quarter of the heap shared by one table per core.
     * Decided once per JVM.
     */
    static Layout forHost() {
        Layout layout = forHost;
        if (layout == null) {
            long[] l2 = new long[1];
            String source = l2CacheSize(l2);
            Runtime runtime = Runtime.getRuntime();
            long perThread = runtime.maxMemory() / 4 / Math.max(1, runtime.availableProcessors());
            int entries = (int) Math.max(MIN_TABLE_ENTRIES, Math.min(MAX_TABLE_ENTRIES, perThread / BYTES_PER_ENTRY));
            layout = new Layout(l2[0], entries, -1, source);
            forHost = layout;
        }
        return layout;
    }

    /** A layout for a host with {@code l2Bytes} of L2 and no bound on the tables but the largest. */
    static Layout forCache(long l2Bytes) {
        return new Layout(l2Bytes, MAX_TABLE_ENTRIES, -1, "given");
    }

    /**
     * A layout with tables of {@code rows} rows at every size that has tables at all (0: every row
     * searched), of at most {@code maxTableEntries} entries: for tests of every path.
     */
    static Layout withTableRows(int rows, int maxTableEntries) {
        return new Layout(LARGE_L2, maxTableEntries, rows, "fixed");
    }

    /**
     * How many of the last free rows the bottom tables cover at size {@code n}; 0 for none (the
     * rows are searched, as they are below n = 14, where tables do not pay, and above
     * {@link BottomTable#MAX_SIZE}).
     */
    int tableRows(int n) {
        if (fixedTableRows >= 0) {
            return n >= 4 && n <= BottomTable.MAX_SIZE ? fixedTableRows : 0;
        }
        if (n < 14 || n > BottomTable.MAX_SIZE) {
            return 0;
        }
        int rows = switch (n) {
            case 14, 15 -> 5;
            case 16 -> 6;
            case 17, 18, 19, 20 -> 7;
            default -> 6;
        };
        return l2Bytes < LARGE_L2 && n >= 18 ? rows - 1 : rows;
    }

    /** One line for the log: the cache size, where it came from, and the table rows at n = 18..20. */
    String describe() {
        return String.format(Locale.ROOT, "L2 %d KB per core (%s): bottom tables of %d/%d/%d rows at n = 18/19/20,"
                + " at most %,d entries", l2Bytes >> 10, source, tableRows(18), tableRows(19), tableRows(20),
                maxTableEntries);
    }

    /** Fills {@code size[0]} with the L2 size per core and returns where it came from. */
    private static String l2CacheSize(long[] size) {
        Path caches = Path.of("/sys/devices/system/cpu/cpu0/cache");
        for (int index = 0; index < 8; index++) {
            Path dir = caches.resolve("index" + index);
            try {
                if (Files.readString(dir.resolve("level")).trim().equals("2")
                        && !Files.readString(dir.resolve("type")).trim().equals("Instruction")) {
                    size[0] = parseSize(Files.readString(dir.resolve("size")).trim());
                    return "sysfs";
                }
            } catch (IOException | NumberFormatException e) {
                // Not there (or not readable): try the next index, then getconf.
            }
        }
        try {
            Process getconf = new ProcessBuilder("getconf", "LEVEL2_CACHE_SIZE").redirectErrorStream(true).start();
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
        size[0] = DEFAULT_L2;
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
