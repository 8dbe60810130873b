package dev.nqueens.query;

import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.store.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.postgresql.core.BaseConnection;
import org.postgresql.util.PSQLException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Runs one read-only statement against the configured database and streams its rows. A text is
 * accepted only if it is a single query (SELECT, WITH, VALUES, TABLE, EXPLAIN of one of these,
 * SHOW), one statement as the database itself cuts the text ({@link OneStatement}: a {@code ;} in
 * a literal, a quoted name or a comment ends nothing; one after it is allowed); it runs in a
 * read-only transaction that is always rolled back, so nothing it could try to change stays
 * changed. A statement the database cannot parse is reported as a syntax error with its position.
 */
@Component
public class ReadOnlyQuery {

    private static final Set<String> READING = Set.of("select", "with", "values", "table", "explain", "show");
    /** What EXPLAIN may explain. */
    private static final Set<String> QUERIES = Set.of("select", "with", "values", "table");
    /** The words between EXPLAIN and the statement it explains (H2's PLAN FOR, ANALYZE; PostgreSQL's ANALYZE, VERBOSE). */
    private static final Set<String> EXPLAIN_OPTIONS = Set.of("analyze", "analyse", "verbose", "plan", "for");
    /** The next word of a text, after blanks and opening parentheses. */
    private static final Pattern WORD = Pattern.compile("[\\s(]*([^\\s(]*)");
    /** Statements that change something, or a session: refused before the database sees them. */
    private static final Set<String> WRITING = Set.of(
            "insert",
            "update",
            "delete",
            "merge",
            "upsert",
            "replace",
            "create",
            "drop",
            "alter",
            "truncate",
            "rename",
            "grant",
            "revoke",
            "call",
            "execute",
            "exec",
            "do",
            "set",
            "reset",
            "copy",
            "comment",
            "vacuum",
            "analyze",
            "cluster",
            "reindex",
            "lock",
            "begin",
            "start",
            "commit",
            "rollback",
            "savepoint",
            "release",
            "prepare",
            "deallocate",
            "discard",
            "listen",
            "notify",
            "unlisten",
            "load",
            "import",
            "runscript",
            "script",
            "backup",
            "shutdown",
            "checkpoint",
            "refresh",
            "declare",
            "fetch",
            "move",
            "close",
            "use",
            "help");
    /** SQL states of a statement the database could not parse (H2's two, PostgreSQL's). */
    private static final Set<String> SYNTAX = Set.of("42000", "42001", "42601");
    /** SQL state of a statement that was cancelled (H2's and PostgreSQL's alike). */
    private static final String CANCELED = "57014";

    /** Receives the column labels once, then each row's values as JDBC returns them. */
    public interface RowSink {
        void columns(List<String> labels);

        void row(List<Object> values);
    }

    private final DataSource dataSource;
    private final int timeoutSeconds;

    /** Statements without a time limit of their own (a holder's still applies): the bean the pages use. */
    @Autowired
    public ReadOnlyQuery(DataSource dataSource) {
        this(dataSource, Duration.ZERO);
    }

    /**
     * @param timeout how long the statement may run ({@code nqueens.statement-timeout}): the
     *     driver cancels it then, whether or not a holder watches the session too
     */
    public ReadOnlyQuery(DataSource dataSource, Duration timeout) {
        this.dataSource = dataSource;
        this.timeoutSeconds = (int) Math.min(Integer.MAX_VALUE, (timeout.toMillis() + 999) / 1000);
    }

    /**
     * @throws InvalidInputException if the text is not a single read-only statement, or the
     *     database rejects it (the message says why, in one line)
     */
    public void run(String sql, RowSink sink) {
        try {
            runChecked(sql, sink);
        } catch (StackOverflowError e) {
            throw new InvalidInputException("the statement is nested too deeply for the database's parser: write it"
                    + " with fewer levels of parentheses or subqueries");
        }
    }

    private void runChecked(String sql, RowSink sink) {
        try (Connection connection = dataSource.getConnection()) {
            // Checked on the connection: its database cuts the text, with its own settings.
            OneStatement statement = checked(sql, Dialect.of(connection), standardConformingStrings(connection));
            try {
                query(connection, statement.text(), timeoutSeconds, sink);
            } catch (SQLException e) {
                throw failed(statement, e);
            }
        } catch (SQLException e) {
            throw new InvalidInputException("the query failed: " + firstLine(e));
        }
    }

    private static void query(Connection connection, String statement, int timeoutSeconds, RowSink sink)
            throws SQLException {
        connection.setAutoCommit(false);
        connection.setReadOnly(true);
        try {
            setUpSession(connection);
            try (PreparedStatement query = connection.prepareStatement(statement)) {
                query.setFetchSize(1000);
                query.setQueryTimeout(timeoutSeconds);
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
            }
        } finally {
            connection.rollback();
            connection.setReadOnly(false);
            connection.setAutoCommit(true);
        }
    }

    /** PostgreSQL's standard_conforming_strings as the driver knows it (on unless a server says otherwise). */
    private static boolean standardConformingStrings(Connection connection) throws SQLException {
        return !connection.isWrapperFor(BaseConnection.class)
                || connection.unwrap(BaseConnection.class).getStandardConformingStrings();
    }

    /**
     * Sets the session up for rows fetched a batch at a time. On H2, rows handed out as they are
     * found: a view's rows are otherwise copied into a temporary result first, which made a pass
     * over a large size several times slower. On PostgreSQL, plans for one process: a query whose
     * rows are fetched in batches never gets its parallel workers, so a parallel plan runs in the
     * one process at a fraction of what it was chosen for (docs/sql.md; the figures in
     * docs/performance.md).
     */
    private static void setUpSession(Connection connection) throws SQLException {
        String database = connection.getMetaData().getDatabaseProductName();
        try (java.sql.Statement session = connection.createStatement()) {
            if ("H2".equals(database)) {
                session.execute("SET LAZY_QUERY_EXECUTION TRUE");
            } else if ("PostgreSQL".equals(database)) {
                session.execute("SET LOCAL max_parallel_workers_per_gather = 0");
            }
        }
    }

    private static InvalidInputException failed(OneStatement statement, SQLException e) {
        String message = firstLine(e);
        if (CANCELED.equals(e.getSQLState())) {
            return new InvalidInputException("the statement was stopped: it ran longer than nqueens.statement-timeout"
                    + " allows, or the memory of the process that holds the database ran short; narrow it (WHERE, LIMIT)"
                    + " or raise the setting");
        }
        if (SYNTAX.contains(e.getSQLState())) {
            return new InvalidInputException("syntax error in the statement at position "
                    + (statement.start() + position(statement.text(), e)) + ": " + message);
        }
        return new InvalidInputException("the query failed: " + message);
    }

    /** The 1-based position of the error: H2 marks it with [*] in the statement it quotes, PostgreSQL sends it. */
    private static int position(String statement, SQLException e) {
        if (e instanceof PSQLException postgres && postgres.getServerErrorMessage() != null) {
            return postgres.getServerErrorMessage().getPosition();
        }
        String message = String.valueOf(e.getMessage());
        int mark = message.indexOf("[*]");
        int quoted = message.lastIndexOf('"', mark);
        if (mark < 0 || quoted < 0) {
            return 1;
        }
        String before = message.substring(quoted + 1, mark);
        int at = statement.indexOf(before);
        return (at < 0 ? 0 : at) + before.length() + 1;
    }

    /** The driver's first line, without H2's dangling "SQL statement:" that only announces the next line. */
    private static String firstLine(SQLException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String first = message.lines().findFirst().orElse(message).strip();
        return first.replaceFirst(";?\\s*SQL statement:$", "").replaceFirst("^ERROR:\\s*", "");
    }

    /**
     * The one statement of {@code sql} (a trailing semicolon allowed), as {@code dialect} cuts the
     * text, if it reads: it starts with a reading keyword, and an EXPLAIN explains a query. For
     * PostgreSQL the setting standard_conforming_strings is taken to be on, the server's default;
     * {@link #run} checks again with the setting of the server it runs on.
     *
     * @return the statement, without the semicolons and comments around it
     * @throws InvalidInputException if there is none, several, one that writes, or one that starts
     *     with no SQL keyword at all (a syntax error at its position)
     */
    public static String checked(String sql, Dialect dialect) {
        return checked(sql, dialect, true).text();
    }

    private static OneStatement checked(String sql, Dialect dialect, boolean standardConformingStrings) {
        OneStatement statement = OneStatement.of(sql, dialect, standardConformingStrings);
        Matcher first = WORD.matcher(statement.blanked());
        first.lookingAt();
        String keyword = keyword(first.group(1));
        if (WRITING.contains(keyword)) {
            throw new InvalidInputException("refused: '" + keyword + "' is not a read-only statement;"
                    + " allowed are SELECT, WITH, VALUES, TABLE, EXPLAIN and SHOW");
        }
        if (!READING.contains(keyword)) {
            throw new InvalidInputException("syntax error in the statement at position "
                    + (statement.start() + first.start(1) + 1) + ": '" + first.group(1)
                    + "' starts no SQL statement; allowed are SELECT, WITH, VALUES, TABLE, EXPLAIN and SHOW");
        }
        if (keyword.equals("explain")) {
            checkExplained(statement.blanked(), first.end());
        }
        return statement;
    }

    /** The keyword a word of the text starts with: {@code select} of {@code SELECT*}. */
    private static String keyword(String word) {
        return word.replaceFirst("\\W.*", "").toLowerCase(Locale.ROOT);
    }

    /**
     * EXPLAIN, after its options (H2's PLAN FOR and ANALYZE, PostgreSQL's ANALYZE and VERBOSE or
     * its options in parentheses), must explain a query: EXPLAIN ANALYZE runs what it explains.
     */
    private static void checkExplained(String statement, int from) {
        Matcher next = WORD.matcher(statement);
        int at = from;
        while (true) {
            while (at < statement.length() && Character.isWhitespace(statement.charAt(at))) {
                at++;
            }
            if (at < statement.length() && statement.charAt(at) == '(') {
                next.region(at, statement.length()).lookingAt();
                if (QUERIES.contains(keyword(next.group(1)))) {
                    return;
                }
                // Not a query in parentheses: PostgreSQL's options, up to their closing parenthesis.
                int close = statement.indexOf(')', at);
                at = close < 0 ? statement.length() : close + 1;
                continue;
            }
            next.region(at, statement.length()).lookingAt();
            String keyword = keyword(next.group(1));
            if (QUERIES.contains(keyword)) {
                return;
            }
            if (!EXPLAIN_OPTIONS.contains(keyword)) {
                throw new InvalidInputException("refused: EXPLAIN of '" + next.group(1) + "'; EXPLAIN is allowed for"
                        + " SELECT, WITH, VALUES and TABLE, which do not write");
            }
            at += keyword.length();
        }
    }
}
