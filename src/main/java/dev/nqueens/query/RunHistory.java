package dev.nqueens.query;

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

    RunHistory(ReadOnlyQuery query) {
        this.query = query;
    }

    /** Streams the last {@code limit} runs into {@code sink}. */
    public void lastRuns(int limit, ReadOnlyQuery.RowSink sink) {
        query.run(SQL + limit, sink);
    }
}
