package dev.nqueens.query;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/**
 * Runs one read-only statement against the configured database and streams its rows. A statement
 * is accepted only if it is a single query (SELECT, WITH, VALUES, TABLE, EXPLAIN, SHOW); it runs
 * in a read-only transaction that is always rolled back, so nothing it could try to change stays
 * changed.
 */
@Component
public class ReadOnlyQuery {

    private static final Set<String> READING = Set.of("select", "with", "values", "table", "explain", "show");

    /** Receives the column labels once, then each row's values as JDBC returns them. */
    public interface RowSink {
        void columns(List<String> labels);

        void row(List<Object> values);
    }

    private final DataSource dataSource;

    ReadOnlyQuery(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * @throws IllegalArgumentException if the text is not a single read-only statement, or the
     *     database rejects it (the message says why, in one line)
     */
    public void run(String sql, RowSink sink) {
        String statement = checked(sql);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            connection.setReadOnly(true);
            try (PreparedStatement query = connection.prepareStatement(statement)) {
                query.setFetchSize(1000);
                try (ResultSet rows = query.executeQuery()) {
                    ResultSetMetaData meta = rows.getMetaData();
                    List<String> labels = new ArrayList<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        labels.add(meta.getColumnLabel(i));
                    }
                    sink.columns(labels);
                    while (rows.next()) {
                        List<Object> values = new ArrayList<>(labels.size());
                        for (int i = 1; i <= labels.size(); i++) {
                            values.add(rows.getObject(i));
                        }
                        sink.row(values);
                    }
                }
            } finally {
                connection.rollback();
                connection.setReadOnly(false);
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new IllegalArgumentException("the query failed: " + message.lines().findFirst().orElse(message));
        }
    }

    /** One statement (a trailing semicolon allowed) that starts with a reading keyword. */
    static String checked(String sql) {
        String statement = sql == null ? "" : sql.strip();
        if (statement.endsWith(";")) {
            statement = statement.substring(0, statement.length() - 1).strip();
        }
        if (statement.isEmpty()) {
            throw new IllegalArgumentException("no statement given: pass one read-only SQL statement in quotes");
        }
        if (statement.contains(";")) {
            throw new IllegalArgumentException("refused: one statement only (the text contains ';')");
        }
        String first = statement.replaceFirst("^[\\s(]+", "").split("[\\s(]+", 2)[0].toLowerCase(Locale.ROOT);
        if (!READING.contains(first)) {
            throw new IllegalArgumentException("refused: '" + first + "' is not a read-only statement;"
                    + " allowed are SELECT, WITH, VALUES, TABLE, EXPLAIN and SHOW");
        }
        return statement;
    }
}
