package dev.nqueens.job;

import dev.nqueens.count.CountingEngine;
import dev.nqueens.count.WorkUnit;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The counting engine's work units of a size, and the fingerprint that says two builds list the same ones. */
public final class WorkUnits {

    private static final Map<Integer, String> FINGERPRINTS = new ConcurrentHashMap<>();

    private WorkUnits() {
    }

    public static List<WorkUnit> of(int n) {
        return CountingEngine.workUnits(n);
    }

    /** The estimated relative cost of a unit: what progress and the order of units are weighed by. */
    public static long cost(WorkUnit unit) {
        return unit.count();
    }

    /** A hex SHA-256 over the whole list of units of size {@code n}. */
    public static String fingerprint(int n) {
        return FINGERPRINTS.computeIfAbsent(n, size -> {
            try {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                for (WorkUnit unit : of(size)) {
                    digest.update((unit.encode() + "\n").getBytes(StandardCharsets.US_ASCII));
                }
                return HexFormat.of().formatHex(digest.digest());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this JVM", e);
            }
        });
    }
}
