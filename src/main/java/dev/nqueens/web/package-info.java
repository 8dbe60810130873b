/**
 * {@code ./nqueens serve}: the results read-only over HTTP — the report page with its plot, a page
 * of board pictures per size, the export files as downloads, a JSON/CSV API, health and
 * Prometheus metrics — and, on an embedded H2 file, the nightly schedule in the same process.
 */
package dev.nqueens.web;
