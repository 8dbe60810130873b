package dev.nqueens.settings;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.scheduling.support.CronExpression;

/**
 * The operator's settings under {@code nqueens.*}: every key, with its default in the jar's
 * {@code application.yml} (nowhere else), overridden by {@code config/application.yml}, the
 * environment and the command line. Each record checks its values as it is bound, so a command
 * never starts with a setting it cannot use; the message names the key.
 *
 * @param sizes the board sizes a plain {@code run} solves, e.g. {@code 1-12}
 * @param threads partitions solved at once; 0 means one per available core
 * @param chunkSize solutions stored per transaction; 0 means the database's own choice
 * @param outputDir where the reports are exported, relative to the working directory
 * @param storage the storage level of each size
 * @param progressInterval how often a long run prints its progress
 * @param schedule when {@code schedule} and {@code serve} start the job, and for how long runs may take new work
 * @param dbServer what {@code db-server} listens on and whom it admits
 * @param reading the login of the reading commands on PostgreSQL
 * @param count how counted sizes are split into partitions
 * @param cluster whether partitions run on the workers of a cluster, and how it is run
 * @param outageWait how long a running run or worker waits for the database or the broker to come
 *     back after losing it, before it gives up (exit 4)
 * @param statementTimeout how long a reading statement ({@code sql}, {@code show}, {@code history},
 *     {@code verify}, a client of {@code db-server}) may run in a process that holds the H2 file
 *     before that process stops it
 * @throws InvalidSettingException naming the key and what it allows
 */
@ConfigurationProperties("nqueens")
public record NqueensProperties(
        String sizes,
        int threads,
        int chunkSize,
        String outputDir,
        Storage storage,
        Duration progressInterval,
        Schedule schedule,
        DbServer dbServer,
        Reading reading,
        Count count,
        Cluster cluster,
        Duration outageWait,
        Duration statementTimeout) {

    public NqueensProperties {
        for (Object part : new Object[] {storage, schedule, dbServer, reading, count, cluster}) {
            if (part == null) {
                throw new InvalidSettingException(
                        "the settings under nqueens.storage, .schedule, .db-server, .reading,"
                                + " .count and .cluster are missing: the jar's application.yml has them; is it on the class path?");
            }
        }
        try {
            BoardSizes.parse(sizes);
        } catch (IllegalArgumentException e) {
            throw InvalidSettingException.of("nqueens.sizes", e.getMessage());
        }
        if (threads < 0) {
            throw InvalidSettingException.of("nqueens.threads", threads, "threads are >= 1, or 0 for one per core");
        }
        if (chunkSize < 0) {
            throw InvalidSettingException.of(
                    "nqueens.chunk-size",
                    chunkSize,
                    "a chunk holds at least 1 solution," + " or 0 to let the database choose");
        }
        if (outputDir == null || outputDir.isBlank()) {
            throw new InvalidSettingException("setting nqueens.output-dir is empty: name the folder for the reports");
        }
        if (progressInterval == null || progressInterval.isNegative() || progressInterval.isZero()) {
            throw InvalidSettingException.of("nqueens.progress-interval", progressInterval, "a duration such as 5s");
        }
        if (outageWait == null || outageWait.toSeconds() < 1) {
            throw InvalidSettingException.of(
                    "nqueens.outage-wait", outageWait, "a duration of at least 1s, such as 2m");
        }
        if (statementTimeout == null || statementTimeout.toSeconds() < 1) {
            throw InvalidSettingException.of(
                    "nqueens.statement-timeout", statementTimeout, "a duration of at least 1s, such as 5m");
        }
    }

    /**
     * @param allUpTo sizes up to this one store every solution
     * @param fundamentalUpTo sizes up to this one store their class representatives; larger ones
     *     only their counts
     */
    public record Storage(int allUpTo, int fundamentalUpTo) {

        public Storage {
            try {
                new StorageLimits(allUpTo, fundamentalUpTo);
            } catch (IllegalArgumentException e) {
                throw InvalidSettingException.of("nqueens.storage", e.getMessage());
            }
        }
    }

    /**
     * @param cron a crontab (5 fields) or Spring (6 fields, seconds first) cron expression
     * @param window how long a run may take new work, from its start (a scheduled run: from its
     *     scheduled time), e.g. {@code 5h}; empty for no limit
     * @param zone the time zone of the cron expression and of the scheduled times; null or empty
     *     for the system's
     * @param enabled whether {@code serve} runs the job on this schedule itself
     */
    public record Schedule(String cron, String window, String zone, boolean enabled) {

        public Schedule {
            try {
                cronExpression(cron);
            } catch (IllegalArgumentException e) {
                throw InvalidSettingException.of("nqueens.schedule.cron", e.getMessage());
            }
            timeWindow(window);
            try {
                zoneOf(zone);
            } catch (DateTimeException e) {
                throw InvalidSettingException.of(
                        "nqueens.schedule.zone",
                        "'" + zone + "'",
                        e.getMessage() + " (a zone such as Europe/Berlin or UTC, or empty for the system's)");
            }
        }

        /** How long a run may take new work; empty for no limit. */
        public Optional<Duration> timeWindow() {
            return timeWindow(window);
        }

        private static Optional<Duration> timeWindow(String window) {
            if (window == null || window.isBlank()) {
                return Optional.empty();
            }
            Duration length;
            try {
                length = Durations.parse(window);
            } catch (IllegalArgumentException e) {
                throw InvalidSettingException.of(
                        "nqueens.schedule.window", "'" + window + "'", Durations.FORMS + " (or empty for none)");
            }
            if (length.isZero() || length.isNegative()) {
                throw InvalidSettingException.of(
                        "nqueens.schedule.window", length, "the window must be longer than zero (or empty for none)");
            }
            return Optional.of(length);
        }

        /** The zone the schedule runs in. */
        public ZoneId zoneId() {
            return zoneOf(zone);
        }

        /** The cron expression, in Spring's six-field form. */
        public CronExpression cronExpression() {
            return cronExpression(cron);
        }

        private static ZoneId zoneOf(String zone) {
            return zone == null || zone.isBlank() ? ZoneId.systemDefault() : ZoneId.of(zone.trim());
        }

        /**
         * Parses a cron expression: Spring's six fields (second minute hour day month weekday), or
         * the five fields of crontab, which get second 0.
         *
         * @throws IllegalArgumentException naming what is wrong
         */
        public static CronExpression cronExpression(String cron) {
            String expression = cron == null ? "" : cron.trim();
            if (expression.split("\\s+").length == 5) {
                expression = "0 " + expression;
            }
            try {
                return CronExpression.parse(expression);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("invalid cron expression '" + cron + "': " + e.getMessage()
                        + " (five crontab fields, or six with seconds first; e.g. '0 2 * * *' is 02:00 every night)");
            }
        }
    }

    /** @param partitions the partitions a counted size is dealt into when first planned; 0 for a few per thread */
    public record Count(int partitions) {

        public Count {
            if (partitions < 0) {
                throw InvalidSettingException.of(
                        "nqueens.count.partitions", partitions, "0 (a few per thread) or more");
            }
        }
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
     * @param startupWait how long a starting {@code worker} waits for what it needs (the broker, the
     *     database, a schema as new as its build) before it gives up (exit 4); 0 = not at all
     */
    public record Cluster(
            boolean enabled, Duration workerTimeout, String queue, String crossCheck, Duration startupWait) {

        private static final List<String> CROSS_CHECKS = List.of("unpublished", "all");

        public Cluster {
            if (workerTimeout == null || workerTimeout.toSeconds() < 4) {
                throw InvalidSettingException.of("nqueens.cluster.worker-timeout", workerTimeout, "at least 4s");
            }
            if (queue == null || queue.isBlank()) {
                throw new InvalidSettingException(
                        "setting nqueens.cluster.queue is empty: name the queue of partition" + " requests");
            }
            if (!CROSS_CHECKS.contains(crossCheck)) {
                throw InvalidSettingException.of(
                        "nqueens.cluster.cross-check", "'" + crossCheck + "'", "unpublished or all");
            }
            if (startupWait == null || startupWait.isNegative()) {
                throw InvalidSettingException.of(
                        "nqueens.cluster.startup-wait", startupWait, "a duration such as 5m, or 0s not to wait");
            }
        }

        /** Whether size {@code n}, {@code published} or not, is counted twice. */
        public boolean crossChecks(boolean published) {
            return "all".equals(crossCheck) || !published;
        }
    }

    /**
     * The login {@code sql}, {@code show}, {@code history} and {@code verify} use on PostgreSQL, if
     * not the job's ({@code spring.datasource.*}): a role that may only read (docs/sql.md). On the
     * embedded H2 file the reading commands always use a login of their own without admin rights.
     *
     * @param username the role; empty for the job's login
     * @param password its password
     */
    public record Reading(String username, String password) {

        /** Whether a reading login is set. */
        public boolean configured() {
            return username != null && !username.isBlank();
        }
    }

    /**
     * @param pgPort the PostgreSQL-protocol port on 127.0.0.1
     * @param tcpPort the H2 TCP port on 127.0.0.1
     * @param user the read-only database user clients log in as
     * @param password its password (psql cannot send an empty one)
     */
    public record DbServer(int pgPort, int tcpPort, String user, String password) {

        public DbServer {
            for (int port : new int[] {pgPort, tcpPort}) {
                if (port < 1 || port > 65535) {
                    throw new InvalidSettingException(
                            "invalid port " + port + " in nqueens.db-server: a TCP port 1..65535");
                }
            }
            if (pgPort == tcpPort) {
                throw new InvalidSettingException(
                        "nqueens.db-server.pg-port and tcp-port are both " + pgPort + ": they need two ports");
            }
            if (user == null || !user.matches("[A-Za-z][A-Za-z0-9_]{0,62}") || user.equalsIgnoreCase("sa")) {
                throw InvalidSettingException.of(
                        "nqueens.db-server.user",
                        "'" + user + "'",
                        "a name of letters, digits and _ (not sa, the owner)");
            }
            if (password == null || password.isEmpty()) {
                throw new InvalidSettingException(
                        "setting nqueens.db-server.password is empty: psql cannot log in" + " without one");
            }
        }
    }

    /** The thread count with 0 resolved to the number of cores. */
    public int effectiveThreads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }

    /** The storage level of each size. */
    public StorageLimits storageLimits() {
        return new StorageLimits(storage.allUpTo(), storage.fundamentalUpTo());
    }

    /** Whether partitions run on the cluster's workers. */
    public boolean clusterMode() {
        return cluster.enabled();
    }
}
