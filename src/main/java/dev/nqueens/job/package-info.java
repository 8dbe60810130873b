/**
 * The nightly Spring Batch job and how it is run: planning each size, a partitioned solve step
 * (one partition per size stored row by row) and count step (partitions of the counting engine's
 * work units), publishing each size as soon as it is complete, the export; one run at a time, a
 * time window, resuming what a killed or stopped run left, the schedule, and a run with nothing to
 * compute done without the job's machinery.
 */
package dev.nqueens.job;
