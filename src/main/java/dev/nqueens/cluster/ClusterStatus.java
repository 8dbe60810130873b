package dev.nqueens.cluster;

import dev.nqueens.settings.NqueensProperties;
import java.io.PrintStream;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code ./nqueens cluster}: the workers seen in the last day (alive or not: host, pid, threads,
 * version, last heartbeat, what each runs now), the last run with its manager's last heartbeat
 * ("manager silent for N s" when it has been silent longer than {@code nqueens.cluster.worker-timeout}
 * while the run is marked running) and its partitions by state, who holds the run lock, and the
 * requests waiting in the queue. Reads the database and asks the broker directly, with no
 * application context.
 */
public final class ClusterStatus {

    private static final Duration RECENT = Duration.ofDays(1);

    private final ClusterRecords records;
    private final JdbcTemplate jdbc;
    private final Environment environment;
    private final NqueensProperties.Cluster settings;

    public ClusterStatus(DataSource dataSource, Environment environment, NqueensProperties.Cluster settings) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.records = new ClusterRecords(jdbc);
        this.environment = environment;
        this.settings = settings;
    }

    public void print(PrintStream out) {
        List<ClusterRecords.Worker> workers = records.workers(settings.workerTimeout(), RECENT);
        Map<String, List<String>> runningBy = records.activeLeases().stream()
                .collect(Collectors.groupingBy(
                        ClusterRecords.Lease::workerId,
                        Collectors.mapping(ClusterRecords.Lease::partition, Collectors.toList())));
        long alive = workers.stream().filter(ClusterRecords.Worker::alive).count();
        out.printf(
                "Workers: %d alive (heartbeat within %d s), %d seen in the last day%n",
                alive, settings.workerTimeout().toSeconds(), workers.size());
        if (!workers.isEmpty()) {
            out.printf(
                    "  %-28s %-6s %7s %-34s %-10s %s%n",
                    "worker", "state", "threads", "version", "heartbeat", "running");
        }
        for (ClusterRecords.Worker worker : workers) {
            List<String> running = runningBy.getOrDefault(worker.id(), List.of());
            out.printf(
                    "  %-28s %-6s %7d %-34s %-10s %s%n",
                    worker.id(),
                    worker.alive() ? "alive" : "gone",
                    worker.threads(),
                    worker.version(),
                    ago(worker.heartbeatAt()),
                    running.isEmpty() ? "-" : String.join(", ", running));
        }
        printRun(out);
        printRunLock(out);
        out.printf("Queue %s: %s%n", settings.queue(), BrokerCheck.queueState(environment, settings.queue()));
    }

    private void printRun(PrintStream out) {
        List<Map<String, Object>> runs = jdbc.queryForList("""
                SELECT e.job_execution_id, e.status, e.start_time, c.manager,
                       EXTRACT(EPOCH FROM (CURRENT_TIMESTAMP - c.heartbeat_at)) AS silent
                FROM batch_job_execution e LEFT JOIN run_control c ON c.job_execution_id = e.job_execution_id
                WHERE e.job_execution_id = (SELECT MAX(job_execution_id) FROM batch_job_execution)""");
        if (runs.isEmpty()) {
            out.println("Runs: none yet");
            return;
        }
        Map<String, Object> run = runs.get(0);
        long id = ((Number) run.get("job_execution_id")).longValue();
        Map<String, Long> byState = jdbc.queryForList("""
                SELECT CASE WHEN status = 'STARTING' THEN 'waiting' WHEN status IN ('STARTED', 'STOPPING') THEN 'running'
                            WHEN status = 'COMPLETED' THEN 'done' ELSE LOWER(status) END AS state, COUNT(*) AS partitions
                FROM batch_step_execution
                WHERE job_execution_id = ? AND (step_name LIKE 'solveSize:%' OR step_name LIKE 'countPart:%')
                GROUP BY 1""", id).stream()
                .collect(Collectors.toMap(
                        row -> (String) row.get("state"), row -> ((Number) row.get("partitions")).longValue()));
        String status = (String) run.get("status");
        out.printf(
                "Run %d (%s, %s, started %s): partitions %d waiting, %d running, %d done%s%n",
                id,
                state(status),
                manager(run, status),
                run.get("start_time"),
                byState.getOrDefault("waiting", 0L),
                byState.getOrDefault("running", 0L),
                byState.getOrDefault("done", 0L),
                byState.entrySet().stream()
                        .filter(e -> !List.of("waiting", "running", "done").contains(e.getKey()))
                        .map(e -> ", " + e.getValue() + " " + e.getKey())
                        .collect(Collectors.joining()));
    }

    /** "managed by db7:4242, heartbeat 2 s ago", or "manager db7:4242 silent for 75 s" while the run is marked running. */
    private String manager(Map<String, Object> run, String status) {
        Object manager = run.get("manager");
        if (manager == null) {
            return "managed by ?";
        }
        long silent = Math.max(0, Math.round(((Number) run.get("silent")).doubleValue()));
        boolean running = List.of("STARTING", "STARTED", "STOPPING").contains(status);
        if (running && silent > settings.workerTimeout().toSeconds()) {
            return "manager " + manager + " silent for " + silent + " s";
        }
        return "managed by " + manager + (running ? ", heartbeat " + silent + " s ago" : "");
    }

    /** A run's state in the product's words. */
    private static String state(String status) {
        return switch (status) {
            case "STARTING", "STARTED" -> "running";
            case "STOPPING" -> "stopping";
            case "UNKNOWN" -> "failed, its end not recorded";
            default -> status.toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** Who holds the run lock, and their last heartbeat. */
    private void printRunLock(PrintStream out) {
        jdbc.query("""
                SELECT holder, epoch, EXTRACT(EPOCH FROM (CURRENT_TIMESTAMP - heartbeat_at)) FROM run_lock WHERE lock_id = 1
                """, rs -> {
            String holder = rs.getString(1);
            out.println(
                    holder == null
                            ? "Run lock: free"
                            : String.format(
                                    "Run lock: held by %s (epoch %d), heartbeat %d s" + " ago",
                                    holder, rs.getLong(2), Math.max(0, Math.round(rs.getDouble(3)))));
        });
    }

    private static String ago(OffsetDateTime time) {
        long seconds = Duration.between(time, OffsetDateTime.now()).toSeconds();
        return seconds < 120 ? seconds + " s ago" : seconds / 60 + " min ago";
    }
}
