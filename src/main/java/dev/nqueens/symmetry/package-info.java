/**
 * The canonical-symmetry reducer: the eight symmetries of the square, the class representative,
 * the orbit size and the symmetry type of a placement. Plain Java, no Spring, no JDBC.
 */
package dev.nqueens.symmetry;
