/** The command line: parsing and checking arguments and settings, the commands, exit codes. */
package dev.nqueens.cli;
