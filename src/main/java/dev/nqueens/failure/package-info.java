/**
 * The failures that end a command, each carrying the exit code it ends the process with, and the
 * exit codes themselves; one line of text each, in the product's words.
 */
package dev.nqueens.failure;
