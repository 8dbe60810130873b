/**
 * The board itself: the eight symmetries of the n×n square, shared by the enumerators, the
 * reducer, the counting engine and the store. The bottom of the house: it imports nothing of ours.
 */
package dev.nqueens.board;
