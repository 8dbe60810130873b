package dev.nqueens.store;

/**
 * Where a computation writes: straight into the published tables (a size not yet published), or
 * into the staging tables (a published size being recomputed, swapped in when complete).
 */
public enum SolutionTables {
    LIVE("stored_solution", "fundamental_solution"),
    STAGED("staged_solution", "staged_fundamental");

    final String solution;
    final String fundamental;

    SolutionTables(String solution, String fundamental) {
        this.solution = solution;
        this.fundamental = fundamental;
    }
}
