/**
 * The counting engine: counts the solutions, fundamental solutions and symmetry classes of one
 * board size without enumerating every solution, by joining the placements of the board's halves
 * (meet in the middle) for one pair of each symmetry orbit; plain Java with no Spring and no JDBC.
 */
package dev.nqueens.count;
