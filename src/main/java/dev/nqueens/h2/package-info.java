/**
 * Everything about the embedded H2 file database: where the file is, who holds it (the lock, the
 * holder marker), opening it read-only, the connection pool of {@code serve} that switches between
 * read-only and writable, rebuilding the file after a killed run, and {@code db-server}, which
 * serves it to psql and other clients.
 */
package dev.nqueens.h2;
