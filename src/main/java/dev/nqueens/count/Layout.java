package dev.nqueens.count;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How the engine searches on this host: how many rows its bottom tables cover at each size, how
 * large a table may grow, and in how large partitions a table counts the placements that wait for
 * it. A layout changes how fast a unit is counted, never what a unit counts: the list of work units
 * does not depend on it.
 *
 * <p>The rows per size were measured fastest here (n = 17 to 21: 7 rows; 6 rows took 3% to 50%
 * longer, 8 rows at n = 18 45% longer). They do not follow the cache: a table counts the waiting
 * placements one partition of column sets at a time, so what a count reads at once is one
 * partition's words, not the table. The partitions follow the L2 size: {@code l2Bytes / 4 KB} column
 * sets (256 on a host with 1 MB per core), since a set's words and chunk tables take up to a few
 * KB. The largest table is bounded by the heap (each counting thread holds one, about 20 bytes
 * per entry) and by 8 million entries; a group whose table would be larger is completed from a
 * table of fewer rows.
 *
 * @param l2Bytes the L2 cache per core this layout is chosen for
 * @param maxTableEntries the most entries a table may have
 * @param fixedTableRows the table rows at every size (for tests), or -1 for the rows by size
 * @param source where the cache size came from
 */
record Layout(long l2Bytes, int maxTableEntries, int fixedTableRows, String source) {

    /** The L2 size of the layouts with fixed rows. */
    private static final long LARGE_L2 = 1 << 20;
    /** Assumed when the host does not say. */
    private static final long DEFAULT_L2 = 512 << 10;
    /**
     * Bytes of heap per table entry: a long while the table is built, its share of the bits, and
     * 2 for the buffer of tables enumerated once (a quarter of the largest, 8 bytes per entry).
     */
    private static final int BYTES_PER_ENTRY = 20;
    private static final int MIN_TABLE_ENTRIES = 1 << 16;
    /** Two threads with tables this large stay below 512 MB resident (n = 21's largest has 11.7 M). */
    private static final int MAX_TABLE_ENTRIES = 1 << 23;
    private static final int MIN_SETS_PER_PARTITION = 32;
    private static final int BYTES_PER_SET = 4 << 10;

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

    /** The heap the largest table a layout allows takes. */
    static long largestTableBytes() {
        return (long) MAX_TABLE_ENTRIES * BYTES_PER_ENTRY;
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
        return switch (n) {
            case 14, 15 -> 5;
            case 16, 22 -> 6;
            default -> 7;
        };
    }

    /** Column sets per partition of waiting placements: a power of two, about L2 / 4 KB. */
    int setsPerPartition() {
        long sets = Math.max(MIN_SETS_PER_PARTITION, Math.min(BottomTable.MAX_SETS_PER_PARTITION, l2Bytes / BYTES_PER_SET));
        return Integer.highestOneBit((int) sets);
    }

    /** One line for the log: the cache size, where it came from, and what it decided. */
    String describe() {
        return String.format(Locale.ROOT, "L2 %d KB per core (%s): tables counted by %d column sets,"
                + " at most %,d entries", l2Bytes >> 10, source, setsPerPartition(), maxTableEntries);
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
