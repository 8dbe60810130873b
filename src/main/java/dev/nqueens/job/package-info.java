/**
 * The nightly Spring Batch job: a partitioned solve step (one partition per board size), the
 * summary step that checks the stored counts against the known values, and the export step.
 */
package dev.nqueens.job;
