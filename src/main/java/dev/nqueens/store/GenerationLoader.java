package dev.nqueens.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.stereotype.Repository;

/**
 * Writes the rows of one chunk into a building generation's tables, and the chunk's checkpoint
 * ({@link Checkpoint}) into {@code building_generation}, all in the caller's transaction: the
 * rows and the record of them commit together. Each database gets its bulk path: H2 JDBC batches
 * (in key order, the order the rows come in), PostgreSQL {@code COPY ... FROM STDIN} in its text
 * format, on the transaction's own connection.
 */
@Repository
public class GenerationLoader {

    private final JdbcTemplate jdbc;
    private final DataSource dataSource;
    private final GenerationTables tables;
    private final SQLExceptionTranslator translator;

    public GenerationLoader(JdbcTemplate jdbc, GenerationTables tables) {
        this.jdbc = jdbc;
        this.dataSource = jdbc.getDataSource();
        this.tables = tables;
        this.translator = new SQLErrorCodeSQLExceptionTranslator(dataSource);
    }

    /**
     * Stores one chunk of generation {@code generation} of size {@code n}: its new classes, its
     * solutions (none at level FUNDAMENTAL), then the checkpoint they reach.
     */
    public void load(
            int n,
            int generation,
            List<RepresentativeRow> classes,
            List<SolutionInsert> solutions,
            Checkpoint reached) {
        if (tables.dialect() == Dialect.POSTGRESQL) {
            copy(n, generation, classes, solutions);
        } else {
            insert(n, generation, classes, solutions);
        }
        jdbc.update(
                "UPDATE building_generation SET solutions_stored = ?, classes_stored = ?, last_placement = ?"
                        + " WHERE n = ? AND generation = ?",
                reached.solutions(),
                reached.classes(),
                reached.lastPlacement().orElse(null),
                n,
                generation);
    }

    private void insert(int n, int generation, List<RepresentativeRow> classes, List<SolutionInsert> solutions) {
        if (!classes.isEmpty()) {
            jdbc.batchUpdate(
                    "INSERT INTO " + GenerationTables.fundamentalTable(n, generation)
                            + " (class_ordinal, placement, orbit_size, cells) VALUES (?, ?, ?, ?)",
                    classes,
                    classes.size(),
                    (PreparedStatement ps, RepresentativeRow row) -> {
                        ps.setLong(1, row.classOrdinal());
                        ps.setString(2, row.placement());
                        ps.setInt(3, row.orbitSize());
                        ps.setString(4, cells(row.placement()));
                    });
        }
        if (!solutions.isEmpty()) {
            jdbc.batchUpdate(
                    "INSERT INTO " + GenerationTables.solutionTable(n, generation)
                            + " (ordinal, placement, class_ordinal, transform, orbit_size) VALUES (?, ?, ?, ?, ?)",
                    solutions,
                    solutions.size(),
                    (PreparedStatement ps, SolutionInsert row) -> {
                        ps.setLong(1, row.ordinal());
                        ps.setString(2, row.placement());
                        ps.setLong(3, row.classOrdinal());
                        ps.setInt(4, row.transform());
                        ps.setInt(5, row.orbitSize());
                    });
        }
    }

    private void copy(int n, int generation, List<RepresentativeRow> classes, List<SolutionInsert> solutions) {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            // The chunk's commit need not wait for its WAL to reach the disk: a server crash can only
            // lose the last chunks whole, with the checkpoint that records them, and the run resumes before them.
            try (java.sql.Statement statement = connection.createStatement()) {
                statement.execute("SET LOCAL synchronous_commit = off");
            }
            CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
            copy(
                    copy,
                    "COPY " + GenerationTables.fundamentalTable(n, generation)
                            + " (class_ordinal, orbit_size, placement, cells) FROM STDIN",
                    classes,
                    (row, rows) -> rows.append(row.classOrdinal())
                            .append('\t')
                            .append(row.orbitSize())
                            .append('\t')
                            .append(row.placement())
                            .append('\t')
                            .append(cells(row.placement()))
                            .append('\n'));
            copy(
                    copy,
                    "COPY " + GenerationTables.solutionTable(n, generation)
                            + " (ordinal, class_ordinal, transform, orbit_size, placement) FROM STDIN",
                    solutions,
                    (row, rows) -> rows.append(row.ordinal())
                            .append('\t')
                            .append(row.classOrdinal())
                            .append('\t')
                            .append(row.transform())
                            .append('\t')
                            .append(row.orbitSize())
                            .append('\t')
                            .append(row.placement())
                            .append('\n'));
        } catch (SQLException e) {
            throw translator.translate("COPY into generation " + generation + " of n=" + n, null, e);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /** One line of {@code COPY}'s text format per row (the values hold no tab, newline or backslash). */
    private interface Line<T> {
        void write(T row, AsciiBuffer rows);
    }

    private static <T> void copy(CopyManager copy, String sql, List<T> rows, Line<T> line) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        CopyIn in = copy.copyIn(sql);
        try {
            AsciiBuffer buffer = new AsciiBuffer(1 << 16);
            for (T row : rows) {
                line.write(row, buffer);
                if (buffer.length() >= 1 << 16) {
                    in.writeToCopy(buffer.array(), 0, buffer.length());
                    buffer.clear();
                }
            }
            in.writeToCopy(buffer.array(), 0, buffer.length());
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    /**
     * The {@code cells} of a representative: one character per row, {@code CHR(96 + column)}
     * ({@code a} for column 1), so the {@code solution_cell} view finds a queen with a substring.
     */
    public static String cells(String placement) {
        StringBuilder cells = new StringBuilder(32);
        int column = 0;
        for (int i = 0; i < placement.length(); i++) {
            char c = placement.charAt(i);
            if (c == ' ') {
                cells.append((char) (96 + column));
                column = 0;
            } else {
                column = column * 10 + (c - '0');
            }
        }
        return cells.append((char) (96 + column)).toString();
    }
}
