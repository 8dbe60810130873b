package dev.nqueens.count;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deterministic list of tasks of a size and its cut into work units. The tasks are the
 * {@link Segment}s' column sets, segment after segment, each segment's ascending; a unit is a run
 * of consecutive tasks of one segment. The list depends on the size alone (never on the host, the
 * layout or the threads), so a resumed run, another night and every worker see the same units.
 */
final class UnitPlan {

    /** Bumped whenever what a task counts or how tasks are cut changes: part of the fingerprint. */
    static final String VERSION = "nqueens counting engine work units v3 (quadrant meet-in-the-middle)";

    /** Sizes up to this many tasks are one unit. */
    private static final int SINGLE_UNIT_UP_TO = 16;
    /** Units per size: a few per task below that, then this many at most. */
    private static final int TARGET_UNITS = 4096;

    private static final Map<Integer, UnitPlan> PLANS = new ConcurrentHashMap<>();

    final int n;
    final List<Segment> segments;
    /** The global index of each segment's first task; one more entry with the total. */
    private final long[] firstTask;

    final List<WorkUnit> units;
    /** The segment of each unit. */
    private final int[] unitSegment;

    private volatile String fingerprint;

    private UnitPlan(int n) {
        this.n = n;
        this.segments = n == 1 ? List.of() : Segment.of(n);
        this.firstTask = new long[segments.size() + 1];
        for (int s = 0; s < segments.size(); s++) {
            firstTask[s + 1] = firstTask[s] + segments.get(s).tasks();
        }
        if (firstTask[segments.size()] > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("board size " + n + " has more tasks than this engine can list");
        }
        List<WorkUnit> list = new ArrayList<>();
        List<Integer> of = new ArrayList<>();
        cut(list, of);
        this.units = List.copyOf(list);
        this.unitSegment = of.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The plan of size {@code n}, computed once per size. */
    static UnitPlan of(int n) {
        return PLANS.computeIfAbsent(n, UnitPlan::new);
    }

    private void cut(List<WorkUnit> list, List<Integer> of) {
        long tasks = firstTask[segments.size()];
        if (tasks <= SINGLE_UNIT_UP_TO) {
            list.add(new WorkUnit(n, 0, 0, (int) tasks, Math.max(tasks, 1)));
            of.add(0);
            return;
        }
        // Two passes over the tasks, the second cutting: costs are recomputed rather than kept
        // (the largest sizes have far too many tasks to keep a cost for each).
        long totalCost = 0;
        for (Segment segment : segments) {
            TaskCost model = new TaskCost(segment);
            Walk walk = new Walk(segment);
            for (int t = 0; t < segment.tasks(); t++, walk.next()) {
                totalCost += walk.cost(model);
            }
        }
        long unitCost = Math.max(1, totalCost / Math.min(TARGET_UNITS, tasks));
        for (int s = 0; s < segments.size(); s++) {
            Segment segment = segments.get(s);
            TaskCost model = new TaskCost(segment);
            Walk walk = new Walk(segment);
            int first = 0;
            long cost = 0;
            for (int t = 0; t < segment.tasks(); t++, walk.next()) {
                cost += walk.cost(model);
                if (cost >= unitCost || t == segment.tasks() - 1) {
                    list.add(new WorkUnit(n, list.size(), (int) firstTask[s] + first, t + 1 - first, cost));
                    of.add(s);
                    first = t + 1;
                    cost = 0;
                }
            }
        }
    }

    /**
     * Walks a segment's tasks in order for their costs. Off the centre a task's cost depends only on
     * how many of its columns are left ones, so the walk stays in the segment's own numbering of its
     * free columns (left ones first), where the next set is one Gosper step away.
     */
    private static final class Walk {
        private final Segment segment;
        private final int leftMask;
        private int index;
        private int set;

        Walk(Segment segment) {
            this.segment = segment;
            this.leftMask = (1 << Integer.bitCount(segment.columns & ((1 << segment.h) - 1))) - 1;
            this.set = segment.symmetric
                    ? (segment.tasks() == 0 ? 0 : segment.columnSet(0))
                    : (1 << segment.topQueens()) - 1;
        }

        long cost(TaskCost model) {
            return segment.symmetric ? model.of(set) : model.ofSplit(Integer.bitCount(set & leftMask));
        }

        void next() {
            index++;
            if (index < segment.tasks()) {
                set = segment.symmetric ? segment.columnSet(index) : Binomial.nextSameCount(set);
            }
        }
    }

    /**
     * The index of the segment whose tasks include {@code first .. first + count - 1}, or -1 if no
     * single segment does.
     */
    int segmentIndex(int first, int count) {
        for (int s = 0; s < segments.size(); s++) {
            if (first >= firstTask[s] && first < firstTask[s + 1]) {
                return (long) first + count <= firstTask[s + 1] ? s : -1;
            }
        }
        return -1;
    }

    /** The index within segment {@code s} of global task {@code task}. */
    int localTask(int s, int task) {
        return (int) (task - firstTask[s]);
    }

    /** The total number of tasks. */
    long tasks() {
        return firstTask[segments.size()];
    }

    /**
     * A hex SHA-256 over a full description of every unit: its position, its segment and the
     * first and last column set of its tasks, under {@link #VERSION}. Computed once.
     */
    String fingerprint() {
        String value = fingerprint;
        if (value == null) {
            value = computeFingerprint();
            fingerprint = value;
        }
        return value;
    }

    private String computeFingerprint() {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        digest.update((VERSION + ": n=" + n + "; a unit counts the solutions of the pairs (C, L) of its column sets C"
                        + " with orbitMin(L) >= C (even board, centre) or all of them (middle queens off the centre)\n")
                .getBytes(StandardCharsets.US_ASCII));
        for (WorkUnit unit : units) {
            StringBuilder text = new StringBuilder();
            text.append("unit ")
                    .append(unit.index())
                    .append(": tasks ")
                    .append(unit.first())
                    .append('+')
                    .append(unit.count());
            if (unit.count() > 0 && segmentIndex(unit.first(), unit.count()) < 0) {
                // A small size's single unit takes the tasks of every segment.
                text.append(", the tasks of all ").append(segments.size()).append(" segments");
            } else if (unit.count() > 0) {
                int s = unitSegment[unit.index()];
                Segment segment = segments.get(s);
                int local = localTask(s, unit.first());
                text.append(", ")
                        .append(segment.describe())
                        .append(", columns ")
                        .append(Integer.toHexString(segment.columnSet(local)))
                        .append("..")
                        .append(Integer.toHexString(segment.columnSet(local + unit.count() - 1)));
            }
            text.append(", cost ").append(unit.cost()).append('\n');
            digest.update(text.toString().getBytes(StandardCharsets.US_ASCII));
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
