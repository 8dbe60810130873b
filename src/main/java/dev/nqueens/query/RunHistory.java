package dev.nqueens.query;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The past runs of the nightly job, newest first, from Spring Batch's tables: when, how each ended
 * ({@code WINDOW CLOSED}: its time window closed and the next run goes on), the sizes asked for
 * and the sizes it published, the rows it wrote and how long it took.
 */
@Component
public class RunHistory {

    static final String SQL = """
            SELECT e.job_execution_id AS run, e.start_time AS started, e.end_time AS ended,
                   CASE WHEN c.window_closed THEN 'WINDOW CLOSED' ELSE e.status END AS status,
                   (SELECT p.parameter_value FROM batch_job_execution_params p
                    WHERE p.job_execution_id = e.job_execution_id AND p.parameter_name = 'sizes') AS sizes,
                   (SELECT STRING_AGG(CAST(r.n AS VARCHAR), ' ' ORDER BY r.n) FROM run_publication r
                    WHERE r.job_execution_id = e.job_execution_id) AS published,
                   (SELECT COALESCE(SUM(s.write_count), 0) FROM batch_step_execution s
                    WHERE s.job_execution_id = e.job_execution_id AND s.step_name LIKE 'solveSize:%') AS rows_written,
                   CAST(EXTRACT(EPOCH FROM (e.end_time - e.start_time)) AS DECIMAL(12, 1)) AS seconds
            FROM batch_job_execution e
            LEFT JOIN run_control c ON c.job_execution_id = e.job_execution_id
            ORDER BY e.job_execution_id DESC
            LIMIT """ + " ";

    private final ReadOnlyQuery query;

    public RunHistory(ReadOnlyQuery query) {
        this.query = query;
    }

    /** Streams the last {@code limit} runs into {@code sink}, their times in UTC ({@code 2026-12-01T02:00:03Z}). */
    public void lastRuns(int limit, ReadOnlyQuery.RowSink sink) {
        query.run(SQL + limit, new ReadOnlyQuery.RowSink() {
            @Override
            public void columns(List<String> labels) {
                sink.columns(labels);
            }

            @Override
            public void row(List<Object> values) {
                List<Object> shown = new ArrayList<>(values);
                shown.set(1, utc(values.get(1)));
                shown.set(2, utc(values.get(2)));
                sink.row(shown);
            }
        });
    }

    /** A time as Spring Batch keeps it (local to the process that ran the job) as UTC text, to the second. */
    private static String utc(Object value) {
        Instant time = time(value);
        return time == null ? null : time.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** The last {@code limit} runs, newest first. */
    public List<PastRun> lastRuns(int limit) {
        List<PastRun> runs = new ArrayList<>();
        query.run(SQL + limit, rows((List<Object> row) -> runs.add(new PastRun(number(row.get(0)), time(row.get(1)),
                time(row.get(2)), (String) row.get(3), (String) row.get(4), (String) row.get(5), number(row.get(6)),
                row.get(7) == null ? null : new BigDecimal(row.get(7).toString())))));
        return runs;
    }

    static final String LAST_SQL = """
            SELECT e.job_execution_id, e.status, e.start_time, e.end_time, e.exit_message,
                   (SELECT s.exit_message FROM batch_step_execution s
                    WHERE s.job_execution_id = e.job_execution_id AND s.status = 'FAILED'
                    ORDER BY s.step_execution_id LIMIT 1) AS step_message,
                   (SELECT MAX(c.end_time) FROM batch_job_execution c WHERE c.status = 'COMPLETED') AS last_completed,
                   (SELECT MAX(f.end_time) FROM batch_job_execution f
                    LEFT JOIN run_control w ON w.job_execution_id = f.job_execution_id
                    WHERE f.status = 'COMPLETED' OR w.window_closed) AS last_finished
            FROM batch_job_execution e
            ORDER BY e.job_execution_id DESC
            LIMIT 1""";

    /** The latest run, read from the job repository each time (runs of other processes count too). */
    public Optional<LastRun> lastRun() {
        List<LastRun> last = new ArrayList<>();
        query.run(LAST_SQL, rows((List<Object> row) -> last.add(new LastRun(number(row.get(0)), (String) row.get(1),
                time(row.get(2)), time(row.get(3)), reason((String) row.get(4), (String) row.get(5)),
                Optional.ofNullable(time(row.get(6))), Optional.ofNullable(time(row.get(7)))))));
        return last.stream().findFirst();
    }

    static final String CREATED_SQL = "SELECT MIN(installed_on) FROM flyway_schema_history";

    /** When the schema was created: the first migration, by {@code run}, {@code schedule} or {@code serve}. */
    public Optional<Instant> databaseCreated() {
        List<Instant> created = new ArrayList<>();
        query.run(CREATED_SQL, rows((List<Object> row) -> {
            if (row.get(0) != null) {
                created.add(time(row.get(0)));
            }
        }));
        return created.stream().filter(java.util.Objects::nonNull).findFirst();
    }

    /** The first non-blank line of the run's exit message, else of its failed step's. */
    private static String reason(String runMessage, String stepMessage) {
        for (String message : new String[] {runMessage, stepMessage}) {
            if (message != null && !message.isBlank()) {
                return message.strip().lines().findFirst().orElse("");
            }
        }
        return "";
    }

    private static ReadOnlyQuery.RowSink rows(java.util.function.Consumer<List<Object>> each) {
        return new ReadOnlyQuery.RowSink() {
            @Override
            public void columns(List<String> labels) {
            }

            @Override
            public void row(List<Object> values) {
                each.accept(values);
            }
        };
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }

    /**
     * Spring Batch stores the local time of the process that ran the job, without a zone; read in
     * this process's zone (the same machine, or a cluster set to one zone), it is an instant.
     */
    private static Instant time(Object value) {
        LocalDateTime local = value instanceof Timestamp timestamp ? timestamp.toLocalDateTime()
                : value instanceof LocalDateTime given ? given : null;
        return local == null ? null : local.atZone(ZoneId.systemDefault()).toInstant();
    }
}
