package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LayoutTests {

    @Test
    void tablesCoverTheLastRowsFromFourteenToTwentyTwo() {
        Layout large = Layout.forCache(1 << 20);
        assertEquals(0, large.tableRows(13));
        assertEquals(5, large.tableRows(14));
        assertEquals(6, large.tableRows(16));
        assertEquals(7, large.tableRows(17));
        assertEquals(7, large.tableRows(21));
        assertEquals(6, large.tableRows(22));
        assertEquals(0, large.tableRows(23));
        // The rows do not follow the cache; the partitions of waiting placements do.
        Layout small = Layout.forCache(512 << 10);
        assertEquals(7, small.tableRows(20));
        assertEquals(256, large.setsPerPartition());
        assertEquals(128, small.setsPerPartition());
        assertEquals(32, Layout.forCache(32 << 10).setsPerPartition());
        assertEquals(1024, Layout.forCache(4 << 20).setsPerPartition());
        assertEquals(512, Layout.forCache(3 << 20).setsPerPartition());
    }

    @Test
    void fixedRowsHoldWhereverTablesCanBe() {
        Layout fixed = Layout.withTableRows(3, 100);
        assertEquals(0, fixed.tableRows(3));
        assertEquals(3, fixed.tableRows(4));
        assertEquals(3, fixed.tableRows(22));
        assertEquals(0, fixed.tableRows(23));
        assertThrows(IllegalArgumentException.class, () -> Layout.withTableRows(1, 100));
        assertThrows(IllegalArgumentException.class, () -> Layout.withTableRows(3, 0));
    }

    @Test
    void hostLayoutIsDecidedOnceAndSaysWhy() {
        Layout host = Layout.forHost();
        assertTrue(host == Layout.forHost());
        assertTrue(host.l2Bytes() > 0 && host.maxTableEntries() > 0);
        assertTrue(host.describe().startsWith("L2 " + (host.l2Bytes() >> 10) + " KB per core"), host.describe());
        assertTrue(host.maxTableEntries() <= 1 << 23, host.describe());
    }

    @Test
    void readsSysfsSizes() {
        assertEquals(1 << 20, Layout.parseSize("1024K"));
        assertEquals(1 << 20, Layout.parseSize("1M"));
        assertEquals(512, Layout.parseSize("512"));
    }
}
