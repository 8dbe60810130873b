package dev.nqueens.store;

import java.sql.Connection;
import java.sql.SQLException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The two databases the store runs on, and the little that differs between them: how a size's
 * rows are loaded (H2: JDBC batches in key order; PostgreSQL: {@code COPY}), which indexes a
 * generation's tables get and when (H2 keeps its keys while it loads, PostgreSQL builds them after
 * the rows are in), and whether the planner needs fresh statistics ({@code ANALYZE}).
 */
public enum Dialect {
    H2,
    POSTGRESQL;

    /** The dialect of the database {@code connection} is open on. */
    public static Dialect of(Connection connection) throws SQLException {
        return "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName()) ? POSTGRESQL : H2;
    }

    /** The dialect of the database behind {@code jdbc}. */
    public static Dialect of(JdbcTemplate jdbc) {
        return jdbc.execute((ConnectionCallback<Dialect>) Dialect::of);
    }
}
