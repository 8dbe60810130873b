/**
 * The counting engine: counts the solutions, fundamental solutions and symmetry classes of one
 * board size without enumerating every solution, by completing only canonical start
 * constellations with a stack backtracker over bitboards; plain Java with no Spring and no JDBC.
 */
package dev.nqueens.count;
