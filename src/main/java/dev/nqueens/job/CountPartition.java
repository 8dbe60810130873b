package dev.nqueens.job;

import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * One partition of the {@code count} step, as its ExecutionContext describes it: the work units
 * {@code index}, {@code index + partitions}, {@code index + 2·partitions}, … of size {@code n},
 * counted as {@code replica} (1, or 2 for the second, cross-checking count of a size without
 * published values), under the list of work units with fingerprint {@code unitFingerprint}.
 */
public record CountPartition(int n, int partitions, int index, int replica, String unitFingerprint) {

    /** ExecutionContext keys. */
    static final String SIZE_KEY = SolvePartitioner.SIZE_KEY;

    static final String PARTITIONS_KEY = "partitionCount";
    static final String INDEX_KEY = "partitionIndex";
    static final String REPLICA_KEY = "replica";
    static final String FINGERPRINT_KEY = "unitFingerprint";

    /** The count partition a step execution's context describes, or null if it describes none. */
    public static CountPartition of(ExecutionContext context) {
        if (!context.containsKey(FINGERPRINT_KEY)) {
            return null;
        }
        return new CountPartition(
                context.getInt(SIZE_KEY),
                context.getInt(PARTITIONS_KEY),
                context.getInt(INDEX_KEY),
                context.getInt(REPLICA_KEY),
                context.getString(FINGERPRINT_KEY));
    }

    /** The same units counted as the other replica. */
    public int otherReplica() {
        return 3 - replica;
    }

    /** The partition's name: {@code n18-p0003-of-0128}, {@code -r2} for the second replica. */
    String name() {
        return String.format("n%02d-p%04d-of-%04d%s", n, index, partitions, replica == 2 ? "-r2" : "");
    }

    void writeTo(ExecutionContext context) {
        context.putInt(SIZE_KEY, n);
        context.putInt(PARTITIONS_KEY, partitions);
        context.putInt(INDEX_KEY, index);
        context.putInt(REPLICA_KEY, replica);
        context.putString(FINGERPRINT_KEY, unitFingerprint);
    }
}
