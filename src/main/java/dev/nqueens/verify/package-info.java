/**
 * Verification of everything stored: re-checks the solutions, class representatives, orderings,
 * counts and exported files against the rules of the board, the known values and the manifest.
 */
package dev.nqueens.verify;
