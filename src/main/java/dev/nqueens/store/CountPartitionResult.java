package dev.nqueens.store;

/** The stored result of one counting sub-partition of a size. */
public record CountPartitionResult(int n, int partitionCount, int partitionIndex, int workUnits, ClassCounts counts,
        long elapsedMs) {
}
