/**
 * Cluster mode: the partitions of the nightly job run on worker processes on any number of
 * machines, through Spring Batch's remote partitioning over RabbitMQ, with a shared PostgreSQL
 * database; workers claim each partition with a lease before working on it.
 */
package dev.nqueens.cluster;
