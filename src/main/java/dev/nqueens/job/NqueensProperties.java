package dev.nqueens.job;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The operator's settings under {@code nqueens.*} (defaults in the jar's application.yml,
 * overrides in {@code config/application.yml} or on the command line).
 *
 * @param sizes the board sizes a plain {@code run} solves, e.g. {@code 1-12}
 * @param threads partitions solved at once; 0 means one per available core
 * @param chunkSize solutions stored per transaction
 * @param outputDir where the reports are exported, relative to the working directory
 * @param storage the storage level of each size
 * @param progressInterval how often a long size prints its progress
 * @param schedule when {@code schedule} starts the job
 * @param dbServer what {@code db-server} listens on and whom it admits
 */
@ConfigurationProperties("nqueens")
public record NqueensProperties(String sizes, int threads, int chunkSize, String outputDir, Storage storage,
        java.time.Duration progressInterval, Schedule schedule, DbServer dbServer) {

    /** The names of all settings, for telling an unknown key from a known one. */
    public static final java.util.Set<String> KEYS = java.util.Set.of("nqueens.sizes", "nqueens.threads",
            "nqueens.chunk-size", "nqueens.output-dir", "nqueens.storage.all-up-to",
            "nqueens.storage.fundamental-up-to", "nqueens.progress-interval", "nqueens.schedule.cron",
            "nqueens.schedule.enabled",
            "nqueens.db-server.pg-port", "nqueens.db-server.tcp-port", "nqueens.db-server.user",
            "nqueens.db-server.password");

    /**
     * @param allUpTo sizes up to this one store every solution
     * @param fundamentalUpTo sizes up to this one store their class representatives; larger ones
     *     only their counts
     */
    public record Storage(int allUpTo, int fundamentalUpTo) {
    }

    /** @param cron a crontab (5 fields) or Spring (6 fields, seconds first) cron expression */
    public record Schedule(String cron) {
    }

    /**
     * @param pgPort the PostgreSQL-protocol port on 127.0.0.1
     * @param tcpPort the H2 TCP port on 127.0.0.1
     * @param user the read-only database user clients log in as
     * @param password its password (psql cannot send an empty one)
     */
    public record DbServer(int pgPort, int tcpPort, String user, String password) {
    }

    /** The thread count with 0 resolved to the number of cores. */
    public int effectiveThreads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }

    /**
     * @throws IllegalArgumentException if the limits are inconsistent
     */
    public StorageLimits storageLimits() {
        return new StorageLimits(storage.allUpTo(), storage.fundamentalUpTo());
    }
}
