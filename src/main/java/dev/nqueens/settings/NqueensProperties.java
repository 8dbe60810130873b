package dev.nqueens.settings;

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
 * @param schedule when {@code schedule} starts the job, and for how long runs may take new work
 * @param dbServer what {@code db-server} listens on and whom it admits
 * @param count how counted sizes are split into partitions
 * @param cluster whether partitions run on the workers of a cluster, and how it is run
 */
@ConfigurationProperties("nqueens")
public record NqueensProperties(String sizes, int threads, int chunkSize, String outputDir, Storage storage,
        java.time.Duration progressInterval, Schedule schedule, DbServer dbServer, Count count, Cluster cluster) {

    /** The names of all settings, for telling an unknown key from a known one. */
    public static final java.util.Set<String> KEYS = java.util.Set.of("nqueens.sizes", "nqueens.threads",
            "nqueens.chunk-size", "nqueens.output-dir", "nqueens.storage.all-up-to",
            "nqueens.storage.fundamental-up-to", "nqueens.progress-interval", "nqueens.schedule.cron",
            "nqueens.schedule.window", "nqueens.schedule.zone",
            "nqueens.schedule.enabled",
            "nqueens.db-server.pg-port", "nqueens.db-server.tcp-port", "nqueens.db-server.user",
            "nqueens.db-server.password", "nqueens.count.partitions", "nqueens.cluster.enabled",
            "nqueens.cluster.worker-timeout", "nqueens.cluster.queue", "nqueens.cluster.cross-check");

    /**
     * @param allUpTo sizes up to this one store every solution
     * @param fundamentalUpTo sizes up to this one store their class representatives; larger ones
     *     only their counts
     */
    public record Storage(int allUpTo, int fundamentalUpTo) {
    }

    /**
     * @param cron a crontab (5 fields) or Spring (6 fields, seconds first) cron expression
     * @param window how long a run may take new work, from its start (a scheduled run: from its
     *     scheduled time); null for no limit
     * @param zone the time zone of the cron expression and of the scheduled times; null or empty
     *     for the system's
     */
    public record Schedule(String cron, java.time.Duration window, String zone) {

        /** The zone the schedule runs in. */
        public java.time.ZoneId zoneId() {
            return zone == null || zone.isBlank() ? java.time.ZoneId.systemDefault() : java.time.ZoneId.of(zone.trim());
        }
    }

    /** @param partitions the partitions a counted size is dealt into when first planned; 0 for a few per thread */
    public record Count(int partitions) {
    }

    /**
     * @param enabled partitions run on the cluster's workers (over RabbitMQ, with a shared PostgreSQL)
     *     instead of this process's pool
     * @param workerTimeout how long a worker (or a run's manager) may go without a heartbeat before
     *     it is taken for dead: its partitions are handed to other workers, and a run without a live
     *     worker fails after it
     * @param queue the RabbitMQ queue the partition requests go through
     * @param crossCheck which counted sizes the cluster counts twice, on different workers:
     *     {@code unpublished} (sizes without published values to check against) or {@code all}
     */
    public record Cluster(boolean enabled, java.time.Duration workerTimeout, String queue, String crossCheck) {

        /** Whether size {@code n}, {@code published} or not, is counted twice. */
        public boolean crossChecks(boolean published) {
            return "all".equals(crossCheck) || !published;
        }
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
