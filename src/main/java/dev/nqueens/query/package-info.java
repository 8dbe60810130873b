/** Read-only SQL for analysts and operators: ad-hoc queries and the run history, printed as tables, CSV or JSON. */
package dev.nqueens.query;
