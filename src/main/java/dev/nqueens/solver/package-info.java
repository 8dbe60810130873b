/**
 * The stack backtracker: enumerates the solutions of one board size in lexicographic order with an
 * explicit stack of bitboards, plain Java with no Spring and no JDBC.
 */
package dev.nqueens.solver;
