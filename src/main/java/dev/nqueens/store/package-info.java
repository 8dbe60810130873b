/** JDBC access to the stored solutions, class representatives and per-size summaries. */
package dev.nqueens.store;
