package dev.nqueens.query;

import dev.nqueens.failure.Failure;
import dev.nqueens.settings.StorageLimits;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * The past runs of the nightly job, newest first, from Spring Batch's tables: when, how each ended
 * ({@code WINDOW CLOSED}: its time window closed and the next run goes on), the sizes asked for
 * and the sizes whose rows it computed and published, the rows it wrote, how long it took, and
 * notes: sizes it lowered on request, sizes it kept above the level its settings name. Runs that
 * completed with nothing to compute are folded into the line of the run before them ("then 3 runs
 * with nothing to compute, the last at …"), unless every run is asked for.
 */
@Component
public class RunHistory {

    /** The columns {@link #lastRuns(int, boolean, ReadOnlyQuery.RowSink)} prints. */
    static final List<String> COLUMNS =
            List.of("run", "started", "ended", "status", "sizes", "published", "rows_written", "seconds", "notes");

    static final String SQL = """
            SELECT e.job_execution_id AS run, e.start_time AS started, e.end_time AS ended,
                   CASE WHEN c.window_closed THEN 'WINDOW CLOSED' ELSE e.status END AS status,
                   (SELECT p.parameter_value FROM batch_job_execution_params p
                    WHERE p.job_execution_id = e.job_execution_id AND p.parameter_name = 'sizes') AS sizes,
                   (SELECT STRING_AGG(CAST(r.n AS VARCHAR), ' ' ORDER BY r.n) FROM run_publication r
                    WHERE r.job_execution_id = e.job_execution_id) AS published,
                   (SELECT COALESCE(SUM(s.write_count), 0) FROM batch_step_execution s
                    WHERE s.job_execution_id = e.job_execution_id AND s.step_name LIKE 'solveSize:%') AS rows_written,
                   CAST(EXTRACT(EPOCH FROM (e.end_time - e.start_time)) AS DECIMAL(12, 1)) AS seconds,
                   (SELECT p.parameter_value FROM batch_job_execution_params p
                    WHERE p.job_execution_id = e.job_execution_id AND p.parameter_name = 'plan') AS plan,
                   (SELECT p.parameter_value FROM batch_job_execution_params p
                    WHERE p.job_execution_id = e.job_execution_id AND p.parameter_name = 'storage') AS storage
            FROM batch_job_execution e
            LEFT JOIN run_control c ON c.job_execution_id = e.job_execution_id
            ORDER BY e.job_execution_id DESC""";

    /** One run as the tables hold it, its plan as the job wrote it ({@code 8:ALL:COMPUTE,14:ALL:KEEP}). */
    private record Recorded(
            long run,
            Instant started,
            Instant ended,
            String status,
            String sizes,
            Set<Integer> published,
            long rowsWritten,
            BigDecimal seconds,
            String plan,
            String storage) {

        /** Completed without computing, lowering or publishing anything. */
        boolean nothingToCompute() {
            return "COMPLETED".equals(status)
                    && published.isEmpty()
                    && rowsWritten == 0
                    && steps().values().stream().allMatch(action -> action.equals("SKIP") || action.equals("KEEP"));
        }

        /** The plan's action per size. */
        TreeMap<Integer, String> steps() {
            TreeMap<Integer, String> steps = new TreeMap<>();
            if (plan != null && !plan.isBlank()) {
                for (String size : plan.split(",")) {
                    String[] fields = size.split(":");
                    steps.put(Integer.parseInt(fields[0]), fields[2]);
                }
            }
            return steps;
        }

        /** The level the plan gives size {@code n}. */
        String levelOf(int n) {
            return Arrays.stream(plan.split(","))
                    .map(size -> size.split(":"))
                    .filter(fields -> Integer.parseInt(fields[0]) == n)
                    .map(fields -> fields[1])
                    .findFirst()
                    .orElse("");
        }

        /** The published sizes whose rows the run computed (a size it lowered is a note). */
        Set<Integer> computed() {
            TreeMap<Integer, String> steps = steps();
            return published.stream()
                    .filter(n -> !"DOWNGRADE".equals(steps.get(n)))
                    .collect(Collectors.toCollection(TreeSet::new));
        }

        /** What else the run did with sizes: lowered on request, kept above the settings' level. */
        List<String> notes() {
            List<String> notes = new ArrayList<>();
            TreeMap<Integer, String> steps = steps();
            List<String> lowered = published.stream()
                    .filter(n -> "DOWNGRADE".equals(steps.get(n)))
                    .map(n -> n + " to " + levelOf(n))
                    .toList();
            if (!lowered.isEmpty()) {
                notes.add("lowered " + String.join(", ", lowered));
            }
            List<Integer> keptSizes = steps.entrySet().stream()
                    .filter(step -> step.getValue().equals("KEEP"))
                    .map(java.util.Map.Entry::getKey)
                    .toList();
            if (!keptSizes.isEmpty()) {
                notes.add("kept "
                        + keptSizes.stream()
                                .map(n -> n + " at " + levelOf(n) + settingsOf(n))
                                .collect(Collectors.joining(", ")));
            }
            return notes;
        }

        private String settingsOf(int n) {
            try {
                return " (settings: " + StorageLimits.parse(storage).levelOf(n) + ")";
            } catch (IllegalArgumentException e) {
                return "";
            }
        }
    }

    private final ReadOnlyQuery query;

    public RunHistory(ReadOnlyQuery query) {
        this.query = query;
    }

    /**
     * Streams the last {@code limit} lines of the history into {@code sink}, their times in UTC
     * ({@code 2026-12-01T02:00:03Z}), an absent value as null.
     *
     * @param everyRun one line per run, runs with nothing to compute included, instead of folded
     */
    public void lastRuns(int limit, boolean everyRun, ReadOnlyQuery.RowSink sink) {
        sink.columns(COLUMNS);
        for (PastRun run : lastRuns(limit, everyRun)) {
            sink.row(Arrays.asList(
                    run.run(),
                    utc(run.started()),
                    utc(run.ended()),
                    run.status(),
                    run.sizes(),
                    run.published(),
                    run.rowsWritten(),
                    run.seconds(),
                    run.notes()));
        }
    }

    /** The last {@code limit} lines of the history, runs with nothing to compute folded. */
    public List<PastRun> lastRuns(int limit) {
        return lastRuns(limit, false);
    }

    /**
     * The last {@code limit} lines of the history, newest first.
     *
     * @param everyRun one line per run, instead of runs with nothing to compute folded into the line
     *     of the run before them
     */
    public List<PastRun> lastRuns(int limit, boolean everyRun) {
        List<Recorded> recorded = new ArrayList<>();
        query.run(
                SQL,
                rows((List<Object> row) -> recorded.add(new Recorded(
                        number(row.get(0)),
                        time(row.get(1)),
                        time(row.get(2)),
                        (String) row.get(3),
                        (String) row.get(4),
                        sizes((String) row.get(5)),
                        number(row.get(6)),
                        row.get(7) == null ? null : new BigDecimal(row.get(7).toString()),
                        (String) row.get(8),
                        (String) row.get(9)))));
        List<PastRun> lines = new ArrayList<>();
        List<Recorded> idle = new ArrayList<>();
        for (Recorded run : recorded) {
            if (lines.size() == limit) {
                return lines;
            }
            if (!everyRun && run.nothingToCompute()) {
                idle.add(run);
                continue;
            }
            lines.add(line(run, idle));
            idle.clear();
        }
        if (!idle.isEmpty() && lines.size() < limit) {
            // Runs with nothing to compute and no run before them: the oldest stands for them all.
            lines.add(line(idle.get(idle.size() - 1), idle.subList(0, idle.size() - 1)));
        }
        return lines;
    }

    /** {@code run}'s line, with the runs with nothing to compute that followed it, newest first. */
    private static PastRun line(Recorded run, List<Recorded> idleAfter) {
        List<String> notes = new ArrayList<>(run.notes());
        if (!idleAfter.isEmpty()) {
            Recorded last = idleAfter.get(0);
            Set<String> kept = new TreeSet<>();
            idleAfter.forEach(idle -> kept.addAll(idle.notes()));
            notes.add("then " + idleAfter.size() + (idleAfter.size() == 1 ? " run" : " runs") + " with nothing to"
                    + " compute, the last at " + utc(last.started())
                    + (kept.isEmpty() ? "" : " (" + String.join("; ", kept) + ")"));
        }
        Set<Integer> computed = run.computed();
        return new PastRun(
                run.run(),
                run.started(),
                run.ended(),
                run.status(),
                run.sizes(),
                computed.isEmpty()
                        ? null
                        : computed.stream().map(String::valueOf).collect(Collectors.joining(" ")),
                run.rowsWritten(),
                run.seconds(),
                notes.isEmpty() ? null : String.join("; ", notes));
    }

    private static Set<Integer> sizes(String published) {
        Set<Integer> sizes = new TreeSet<>();
        if (published != null && !published.isBlank()) {
            Arrays.stream(published.trim().split("\\s+")).map(Integer::valueOf).forEach(sizes::add);
        }
        return sizes;
    }

    /** A time as UTC text, to the second. */
    private static String utc(Instant time) {
        return time == null ? null : time.truncatedTo(ChronoUnit.SECONDS).toString();
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
        query.run(
                LAST_SQL,
                rows((List<Object> row) -> last.add(new LastRun(
                        number(row.get(0)),
                        (String) row.get(1),
                        time(row.get(2)),
                        time(row.get(3)),
                        reason((String) row.get(4), (String) row.get(5)),
                        Optional.ofNullable(time(row.get(6))),
                        Optional.ofNullable(time(row.get(7)))))));
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
                return Failure.firstLine(message.strip());
            }
        }
        return "";
    }

    private static ReadOnlyQuery.RowSink rows(java.util.function.Consumer<List<Object>> each) {
        return new ReadOnlyQuery.RowSink() {
            @Override
            public void columns(List<String> labels) {}

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
        LocalDateTime local = value instanceof Timestamp timestamp
                ? timestamp.toLocalDateTime()
                : value instanceof LocalDateTime given ? given : null;
        return local == null ? null : local.atZone(ZoneId.systemDefault()).toInstant();
    }
}
