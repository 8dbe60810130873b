/**
 * The embedded H2 file: where it is, its owner's password, who holds it and how the holder serves
 * it (H2's TCP server on 127.0.0.1), backups, compaction, the rebuild after a killed run, the
 * servers of {@code db-server}, and how H2 cuts a text of SQL into statements.
 */
package dev.nqueens.h2;
