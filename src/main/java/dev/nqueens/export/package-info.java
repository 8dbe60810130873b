/**
 * The JSON and CSV reports: a summary of all sizes, per size the stored solutions and the class
 * representatives, and a manifest with each file's size and SHA-256. Files are streamed and only
 * appear under their final names once complete.
 */
package dev.nqueens.export;
