package dev.nqueens.store;

/**
 * Where a computation writes: straight into the published tables (a size not yet published), or
 * into the staging tables (a published size being recomputed, swapped in when complete).
 */
public enum SolutionTables {
    LIVE("stored_solution", "stored_fundamental", "fundamental_cell"),
    STAGED("staged_solution", "staged_fundamental", "staged_fundamental_cell");

    final String solution;
    /** The class representatives. */
    final String representatives;
    /** The cells of the representatives (sizes stored with every solution only). */
    final String cell;

    SolutionTables(String solution, String representatives, String cell) {
        this.solution = solution;
        this.representatives = representatives;
        this.cell = cell;
    }
}
