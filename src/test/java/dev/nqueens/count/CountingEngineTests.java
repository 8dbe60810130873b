package dev.nqueens.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nqueens.Reference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CountingEngineTests {

    private static Map<Integer, CountResult> known;

    @BeforeAll
    static void readKnownCounts() {
        known = new TreeMap<>();
        for (Reference.Counts c : Reference.counts()) {
            known.put(c.n(), new CountResult(c.total(), c.fundamental(), c.rot90(), c.rot180(), c.asymmetric()));
        }
    }

    static IntStream sizes() {
        return IntStream.rangeClosed(1, 16);
    }

    @ParameterizedTest(name = "n = {0}")
    @MethodSource("sizes")
    void countsEverySizeExactly(int n) {
        assertEquals(known.get(n), CountingEngine.countAll(n, 1, null));
    }

    /**
     * Every path the engine can take gives the published counts, unit by unit the same: the
     * layouts for a small and a large first-level cache (deep and shallow sieves), a sieve of
     * single-pattern buckets and none at all, and quadrants searched instead of tabulated. n = 16
     * repeats the two cache layouts only (the others are covered up to 15, where they take
     * seconds).
     */
    @ParameterizedTest(name = "n = {0}")
    @MethodSource("sizes")
    void countsEverySizeExactlyOnEveryPath(int n) {
        List<WorkUnit> units = CountingEngine.workUnits(n);
        List<Layout> layouts =
                new ArrayList<>(List.of(Layout.forCaches(16 << 10, 256 << 10), Layout.forCaches(1 << 20, 2 << 20)));
        if (n < 16) {
            layouts.add(Layout.forCaches(32 << 10, 512 << 10).withBuckets(1));
            layouts.add(Layout.forCaches(32 << 10, 512 << 10).withBuckets(1 << 30));
            layouts.add(Layout.forCaches(32 << 10, 512 << 10).searchingQuadrants());
        }
        List<CountResult> byUnit = null;
        for (Layout layout : layouts) {
            List<CountResult> counts = countEachUnit(n, layout);
            assertEquals(known.get(n), sum(counts), layout.toString());
            if (byUnit != null) {
                assertEquals(byUnit, counts, layout + ": unit by unit, as with " + layouts.get(0));
            }
            byUnit = counts;
            assertEquals(units, CountingEngine.workUnits(n), "the list of units does not depend on " + layout);
        }
    }

    private static List<CountResult> countEachUnit(int n, Layout layout) {
        CountingEngine engine = new CountingEngine(n, layout);
        List<CountResult> counts = new ArrayList<>();
        for (WorkUnit unit : CountingEngine.workUnits(n)) {
            counts.add(engine.count(unit));
        }
        return counts;
    }

    private static CountResult sum(List<CountResult> counts) {
        CountResult sum = CountResult.ZERO;
        for (CountResult c : counts) {
            sum = sum.plus(c);
        }
        return sum;
    }

    @Test
    void countsTheSmallSizesOfTheIssue() {
        assertEquals(new CountResult(1, 1, 1, 0, 0), CountingEngine.countAll(1, 1, null));
        assertEquals(CountResult.ZERO, CountingEngine.countAll(2, 1, null));
        assertEquals(CountResult.ZERO, CountingEngine.countAll(3, 1, null));
        assertEquals(new CountResult(2, 1, 1, 0, 0), CountingEngine.countAll(4, 1, null));
        assertEquals(new CountResult(10, 2, 1, 0, 1), CountingEngine.countAll(5, 1, null));
        assertEquals(new CountResult(4, 1, 0, 1, 0), CountingEngine.countAll(6, 1, null));
    }

    /** Each unit's classes are whole classes: its counts are a valid result of their own. */
    @ParameterizedTest(name = "n = {0}")
    @MethodSource("splitSizes")
    void unitsOfOneSizeAddUpToTheWhole(int n) {
        List<WorkUnit> units = CountingEngine.workUnits(n);
        assertTrue(units.size() > 50, "units of size " + n + ": " + units.size());
        CountingEngine engine = new CountingEngine(n);
        CountResult sum = CountResult.ZERO;
        for (int i = 0; i < units.size(); i++) {
            WorkUnit unit = units.get(i);
            assertEquals(n, unit.n());
            assertEquals(i, unit.index());
            CountResult counted = engine.count(unit);
            assertEquals(
                    counted.total(),
                    2 * counted.rot90Classes() + 4 * counted.rot180Classes() + 8 * counted.asymmetricClasses(),
                    unit.encode() + ": " + counted);
            sum = sum.plus(counted);
        }
        assertEquals(known.get(n), sum);
    }

    static IntStream splitSizes() {
        return IntStream.of(12, 13, 15, 16);
    }

    @Test
    void unitsCountedInAnyOrderGiveTheSameSum() {
        List<WorkUnit> units = new ArrayList<>(CountingEngine.workUnits(13));
        Collections.shuffle(units, new Random(20240613));
        CountingEngine engine = new CountingEngine(13);
        CountResult sum = CountResult.ZERO;
        for (WorkUnit unit : units) {
            sum = sum.plus(engine.count(unit));
        }
        assertEquals(known.get(13), sum);
    }

    @ParameterizedTest(name = "n = {0}")
    @MethodSource("splitSizes")
    void unitsCoverEachTaskOnceInOrder(int n) {
        List<WorkUnit> units = CountingEngine.workUnits(n);
        int next = 0;
        for (WorkUnit unit : units) {
            assertEquals(next, unit.first());
            assertTrue(unit.count() > 0);
            assertTrue(unit.cost() > 0, unit.encode());
            next += unit.count();
        }
        assertEquals(UnitPlan.of(n).tasks(), next);
        assertTrue(CountingEngine.workUnits(n) == units, "computed once");
    }

    /** From n = 16 on a size has thousands of units, none far above the average cost. */
    @Test
    void largeSizesHaveThousandsOfUnitsOfComparableCost() {
        for (int n : new int[] {16, 19, 20}) {
            List<WorkUnit> units = CountingEngine.workUnits(n);
            assertTrue(units.size() >= 2000 && units.size() <= 5000, "units of size " + n + ": " + units.size());
            long total = units.stream().mapToLong(WorkUnit::cost).sum();
            long average = total / units.size();
            long largest = units.stream().mapToLong(WorkUnit::cost).max().orElseThrow();
            assertTrue(
                    largest < 4 * average, "n = " + n + ": largest " + largest + " against an average of " + average);
        }
    }

    @Test
    void twoThreadsCountLikeOne() {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger lastTotal = new AtomicInteger();
        CountResult two = CountingEngine.countAll(14, 2, (done, total) -> {
            calls.incrementAndGet();
            lastTotal.set(total);
        });
        assertEquals(CountingEngine.countAll(14, 1, null), two);
        assertEquals(known.get(14), two);
        assertEquals(CountingEngine.workUnits(14).size(), calls.get());
        assertEquals(CountingEngine.workUnits(14).size(), lastTotal.get());
    }

    @Test
    void workUnitTextIsShortAndUnitsAreChecked() {
        assertEquals("18:7:123:4:5678", new WorkUnit(18, 7, 123, 4, 5678).encode());
        assertThrows(IllegalArgumentException.class, () -> new WorkUnit(33, 0, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new WorkUnit(18, 0, 0, 1, -1));
    }

    @Test
    void everyCountedSizeHasItsOwnFingerprint() {
        // n = 5 once failed here: a small size's one unit takes the tasks of several segments.
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int n = 1; n <= 20; n++) {
            assertTrue(seen.add(CountingEngine.unitListFingerprint(n)), "n = " + n);
        }
    }

    @Test
    void fingerprintDescribesTheListAndIsComputedOnce() {
        String fingerprint = CountingEngine.unitListFingerprint(14);
        assertTrue(fingerprint.matches("[0-9a-f]{64}"), fingerprint);
        assertTrue(fingerprint == CountingEngine.unitListFingerprint(14), "cached per size");
        assertTrue(!fingerprint.equals(CountingEngine.unitListFingerprint(15)));
        // The list of this build, pinned: a change to how sizes are cut into units or to what a
        // unit counts must change this value on purpose (a resumed run or another worker checks it).
        assertEquals("a1c871b11a18c952181c37e91c0f1ff588230c1eedb114360003054bac657458", fingerprint);
    }

    @Test
    void rejectsSizesOutsideWhatItCounts() {
        assertThrows(IllegalArgumentException.class, () -> CountingEngine.workUnits(0));
        assertThrows(IllegalArgumentException.class, () -> new CountingEngine(33));
        assertThrows(IllegalArgumentException.class, () -> CountingEngine.countAll(8, 0, null));
        IllegalArgumentException tooLarge = assertThrows(
                IllegalArgumentException.class, () -> CountingEngine.workUnits(CountingEngine.MAX_COUNTED_SIZE + 1));
        assertTrue(tooLarge.getMessage().contains("beyond"), tooLarge.getMessage());
    }

    @Test
    void rejectsUnitsOfAnotherSizeOrOutOfRange() {
        CountingEngine engine = new CountingEngine(10);
        assertThrows(IllegalArgumentException.class, () -> engine.count(new WorkUnit(11, 0, 0, 1, 1)));
        assertThrows(IllegalArgumentException.class, () -> engine.count(new WorkUnit(10, 0, 0, 100_000, 1)));
    }

    /**
     * The heap the engine asks for grows with the size and the threads; with less, it searches
     * quadrants instead of tabulating them, and with too little for one thread it refuses, naming
     * the heap it needs, instead of running out of memory half way.
     */
    @Test
    void choosesALayoutThatFitsTheHeapOrRefuses() {
        assertTrue(CountingEngine.heapBytesNeeded(20, 2) > CountingEngine.heapBytesNeeded(20, 1));
        assertTrue(CountingEngine.heapBytesNeeded(22, 1) > CountingEngine.heapBytesNeeded(20, 1));
        assertTrue(CountingEngine.heapBytesNeeded(21, 2) < 1L << 30, "n = 21 on two threads under 1 GB");
        Layout host = Layout.forCaches(32 << 10, 512 << 10);
        long needed = MemoryModel.sharedBytes(23, host) + MemoryModel.threadBytes(23);
        assertEquals(host, CountingEngine.chooseLayout(23, host, needed));
        Layout small = CountingEngine.chooseLayout(23, host, MemoryModel.threadBytes(23) + 1);
        assertTrue(small.searchQuadrants(), small.describe());
        IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> CountingEngine.chooseLayout(23, host, 1 << 20));
        assertTrue(refused.getMessage().contains("-Xmx"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CountingEngine.heapBytesNeeded(20, 0));
    }

    @Test
    void resultsAddUp() {
        CountResult a = new CountResult(10, 2, 1, 0, 1);
        CountResult b = new CountResult(4, 1, 0, 1, 0);
        assertEquals(new CountResult(14, 3, 1, 1, 1), a.plus(b));
        assertEquals(a, a.plus(CountResult.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new CountResult(8, 2, 0, 0, 1));
    }

    /** Q(28) still fits in a long; a sum beyond it throws instead of wrapping around. */
    @Test
    void sumsThatDoNotFitInALongThrow() {
        CountResult big = new CountResult(Long.MAX_VALUE - 1, 1, 0, 0, 1);
        assertThrows(ArithmeticException.class, () -> big.plus(new CountResult(8, 1, 0, 0, 1)));
        assertThrows(ArithmeticException.class, () -> big.plus(big));
    }
}
