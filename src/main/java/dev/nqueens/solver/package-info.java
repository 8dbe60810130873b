/**
 * The enumerators: the stack backtracker lists every solution of one board size in lexicographic
 * order with an explicit stack of bitboards, the representative enumerator lists only the class
 * representatives; plain Java with no Spring and no JDBC.
 */
package dev.nqueens.solver;
