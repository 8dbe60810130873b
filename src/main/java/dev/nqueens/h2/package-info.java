/**
 * Everything about the embedded H2 file database: where the file is, its owner's password, who
 * holds it (the holder marker) and how the holder serves it to the other commands (H2's TCP
 * server on 127.0.0.1), backups, compaction, rebuilding the file after a killed run, and
 * {@code db-server}, which serves it to psql and other clients.
 */
package dev.nqueens.h2;
