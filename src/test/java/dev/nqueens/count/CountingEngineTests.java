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

    /** Up to 13 every row is searched; from 14 on the last rows come from bottom tables. */
    static IntStream sizes() {
        return IntStream.rangeClosed(1, 16);
    }

    @ParameterizedTest(name = "n = {0}")
    @MethodSource("sizes")
    void countsEverySizeExactly(int n) {
        assertEquals(known.get(n), CountingEngine.countAll(n, 1, null));
    }

    /**
     * Every path the engine can take gives the published counts: every row searched, tables of 2
     * to 7 rows, the layouts for a small and a large cache, and tables so limited that groups fall
     * back to fewer rows (down to none). Each layout counts unit by unit, and each unit counts the
     * same under every layout. At n = 16 only the table paths the engine takes by default there
     * are repeated (the others are seconds each, and n = 15 covers them).
     */
    @ParameterizedTest(name = "n = {0}")
    @MethodSource("sizes")
    void countsEverySizeExactlyOnEveryPath(int n) {
        List<WorkUnit> units = CountingEngine.workUnits(n);
        // The smallest cache gives partitions of 32 column sets, the largest of 1024.
        List<Layout> layouts = new ArrayList<>(List.of(Layout.forCache(32 << 10), Layout.forCache(4 << 20)));
        if (n < 16) {
            layouts.add(Layout.withTableRows(0, 1));
            layouts.add(Layout.withTableRows(7, 40));
            layouts.add(Layout.withTableRows(5, 3));
            for (int rows = 2; rows <= Math.min(7, n - 5); rows++) {
                layouts.add(Layout.withTableRows(rows, 1 << 20));
            }
        } else {
            layouts.add(Layout.withTableRows(5, 1 << 20));
            layouts.add(Layout.withTableRows(7, 1 << 20));
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

    @ParameterizedTest(name = "n = {0}")
    @MethodSource("splitSizes")
    void unitsOfOneSizeAddUpToTheWholeAndSurviveEncoding(int n) {
        List<WorkUnit> units = CountingEngine.workUnits(n);
        assertTrue(units.size() > 50, "units of size " + n + ": " + units.size());
        CountingEngine engine = new CountingEngine(n);
        CountResult sum = CountResult.ZERO;
        for (int i = 0; i < units.size(); i++) {
            WorkUnit unit = units.get(i);
            assertEquals(n, unit.n());
            assertEquals(i, unit.index());
            assertEquals(unit, WorkUnit.decode(unit.encode()));
            sum = sum.plus(engine.count(WorkUnit.decode(unit.encode())));
        }
        assertEquals(known.get(n), sum);
    }

    static IntStream splitSizes() {
        return IntStream.of(12, 13, 15);
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

    @Test
    void unitsCoverEachConstellationOnce() {
        List<WorkUnit> units = CountingEngine.workUnits(16);
        int next = 0;
        for (WorkUnit unit : units) {
            assertEquals(next, unit.first());
            assertTrue(unit.count() > 0);
            next += unit.count();
        }
        assertEquals(CountingEngine.workUnits(16), units, "deterministic");
        assertTrue(units.size() >= 300 && units.size() <= 3000, "units of size 16: " + units.size());
    }

    /** A unit ends where a table group ends, so no two units need the same bottom table. */
    @Test
    void unitsKeepTableGroupsWhole() {
        List<StartConstellations.Ranked> ranked = StartConstellations.of(16);
        List<WorkUnit> units = CountingEngine.workUnits(16);
        java.util.Set<Integer> groupsSeen = new java.util.HashSet<>();
        for (WorkUnit unit : units) {
            java.util.Set<Integer> groups = new java.util.HashSet<>();
            for (int i = unit.first(); i < unit.first() + unit.count(); i++) {
                groups.add(StartConstellations.tableGroup(ranked.get(i).constellation()));
            }
            for (int group : groups) {
                assertTrue(groupsSeen.add(group), "group " + group + " is split across units");
            }
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
    void workUnitTextIsShortAndStrict() {
        WorkUnit unit = new WorkUnit(18, 7, 123, 4, 5678);
        assertEquals("18:7:123:4:5678", unit.encode());
        assertEquals(unit, WorkUnit.decode("18:7:123:4:5678"));
        assertThrows(IllegalArgumentException.class, () -> WorkUnit.decode("18:7:123:4"));
        assertThrows(IllegalArgumentException.class, () -> WorkUnit.decode("18:7:x:4:1"));
        assertThrows(IllegalArgumentException.class, () -> WorkUnit.decode("33:0:0:1:1"));
        assertThrows(IllegalArgumentException.class, () -> WorkUnit.decode("18:0:0:1:-1"));
    }

    /** The cost is a deterministic estimate: positive, the sum of its constellations' estimates. */
    @Test
    void unitCostsAreTheSumsOfTheirConstellationsEstimates() {
        List<StartConstellations.Ranked> ranked = StartConstellations.of(17);
        for (WorkUnit unit : CountingEngine.workUnits(17)) {
            long cost = 0;
            for (int i = unit.first(); i < unit.first() + unit.count(); i++) {
                cost += ranked.get(i).cost();
            }
            assertEquals(cost, unit.cost(), unit.encode());
            assertTrue(unit.cost() > 0, unit.encode());
        }
    }

    /**
     * From n = 19 on a size has thousands of units, none far above the average cost: table groups
     * that cost more than a unit are cut (a single constellation is never cut).
     */
    @Test
    void largeSizesHaveThousandsOfUnitsOfComparableCost() {
        List<WorkUnit> units = CountingEngine.workUnits(19);
        assertTrue(units.size() >= 3000, "units of size 19: " + units.size());
        long total = units.stream().mapToLong(WorkUnit::cost).sum();
        long average = total / units.size();
        List<StartConstellations.Ranked> ranked = StartConstellations.of(19);
        for (WorkUnit unit : units) {
            if (unit.count() > 1) {
                long largest = 0;
                for (int i = unit.first(); i < unit.first() + unit.count(); i++) {
                    largest = Math.max(largest, ranked.get(i).cost());
                }
                assertTrue(unit.cost() < 2 * average + largest, unit.encode() + " against an average of " + average);
            }
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
        assertEquals("02b2a2cc4ee8bd73ffc5c528ea87b5c012b9685cf09d71e5593ad5f41e09c8d2", fingerprint);
    }

    @Test
    void rejectsSizesOutsideOneToThirtyTwo() {
        assertThrows(IllegalArgumentException.class, () -> CountingEngine.workUnits(0));
        assertThrows(IllegalArgumentException.class, () -> new CountingEngine(33));
        assertThrows(IllegalArgumentException.class, () -> CountingEngine.countAll(8, 0, null));
    }

    @Test
    void rejectsUnitsOfAnotherSizeOrOutOfRange() {
        CountingEngine engine = new CountingEngine(10);
        assertThrows(IllegalArgumentException.class, () -> engine.count(new WorkUnit(11, 0, 0, 1, 1)));
        assertThrows(IllegalArgumentException.class, () -> engine.count(new WorkUnit(10, 0, 0, 100_000, 1)));
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
