package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LayoutTests {

    /** Two words' tables (16 KB) per pass from a 32 KB first-level cache on, one below; 32 patterns per word of a pass. */
    @Test
    void passesAndBucketsFollowTheFirstLevelCache() {
        assertEquals(2, Layout.forCaches(32 << 10, 512 << 10).wordsPerPass());
        assertEquals(64, Layout.forCaches(32 << 10, 512 << 10).patternsPerBucket());
        assertEquals(2, Layout.forCaches(48 << 10, 1 << 20).wordsPerPass());
        assertEquals(1, Layout.forCaches(16 << 10, 256 << 10).wordsPerPass());
        assertEquals(32, Layout.forCaches(16 << 10, 256 << 10).patternsPerBucket());
        assertEquals(64, Layout.forCaches(1 << 30, 1 << 30).patternsPerBucket());
        assertTrue(Layout.forCaches(32 << 10, 512 << 10).searchingQuadrants().searchQuadrants());
        assertThrows(IllegalArgumentException.class, () -> Layout.forCaches(0, 1));
    }

    @Test
    void hostLayoutIsDecidedOnceByTheRuleForItsCaches() {
        Layout host = Layout.forHost();
        assertSame(host, Layout.forHost());
        Layout given = Layout.forCaches(host.l1Bytes(), host.l2Bytes());
        assertEquals(given.wordsPerPass(), host.wordsPerPass());
        assertEquals(given.patternsPerBucket(), host.patternsPerBucket());
        assertFalse(host.searchQuadrants());
    }

    @Test
    void readsSysfsSizes() {
        assertEquals(1 << 20, Layout.parseSize("1024K"));
        assertEquals(1 << 20, Layout.parseSize("1M"));
        assertEquals(512, Layout.parseSize("512"));
    }
}
