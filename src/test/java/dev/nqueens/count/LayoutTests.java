package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LayoutTests {

    @Test
    void tablesCoverTheLastRowsFromFourteenToTwentyTwo() {
        Layout large = Layout.forCache(1 << 20);
        Layout small = Layout.forCache(512 << 10);
        assertEquals(0, large.tableRows(13));
        assertEquals(5, large.tableRows(14));
        assertEquals(6, large.tableRows(16));
        assertEquals(7, large.tableRows(18));
        assertEquals(7, large.tableRows(20));
        assertEquals(6, large.tableRows(22));
        assertEquals(0, large.tableRows(23));
        assertEquals(6, small.tableRows(16));
        assertEquals(6, small.tableRows(18));
        assertEquals(6, small.tableRows(20));
        assertEquals(5, small.tableRows(22));
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
    }

    @Test
    void readsSysfsSizes() {
        assertEquals(1 << 20, Layout.parseSize("1024K"));
        assertEquals(1 << 20, Layout.parseSize("1M"));
        assertEquals(512, Layout.parseSize("512"));
    }
}
