/**
 * SQL for analysts and operators: ad-hoc read-only queries and the run history, printed as tables,
 * CSV or JSON, and the pruning of old runs from that history.
 */
package dev.nqueens.query;
