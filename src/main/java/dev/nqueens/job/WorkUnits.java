package dev.nqueens.job;

import dev.nqueens.count.CountingEngine;
import dev.nqueens.count.WorkUnit;
import java.util.List;

/** The counting engine's work units of a size, and the fingerprint that says two builds list the same ones. */
public final class WorkUnits {

    private WorkUnits() {}

    public static List<WorkUnit> of(int n) {
        return CountingEngine.workUnits(n);
    }

    /** The estimated relative cost of a unit, the same on every host: what progress and the order of units are weighed by. */
    public static long cost(WorkUnit unit) {
        return unit.cost();
    }

    /** The engine's fingerprint of the whole list of units of size {@code n} (a hex SHA-256). */
    public static String fingerprint(int n) {
        return CountingEngine.unitListFingerprint(n);
    }
}
