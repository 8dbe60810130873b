package db.migration;

import dev.nqueens.store.GenerationTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * A solution's class ordinal becomes an {@code INTEGER} up to n = 19
 * ({@link GenerationTables#classOrdinalType}): on PostgreSQL the class index's entries are then
 * smaller (docs/sql.md). The solution tables made by earlier builds with a {@code BIGINT} are altered (the views,
 * which name the column, are dropped first and written anew after); the others are left as they are.
 */
public class V16__Class_ordinal_as_integer extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        List<GenerationTables.Registered> registered = new ArrayList<>();
        List<String> altered = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT n, generation, with_solutions FROM stored_generation ORDER BY n, generation")) {
            while (rows.next()) {
                GenerationTables.Registered generation =
                        new GenerationTables.Registered(rows.getInt(1), rows.getInt(2), rows.getBoolean(3));
                if (columnType(connection, generation.classes(), "class_ordinal") == null) {
                    continue; // its tables dropped by a run killed before it forgot them: out of the views
                }
                String type = generation.withSolutions()
                        ? columnType(connection, generation.solutions(), "class_ordinal")
                        : null;
                registered.add(new GenerationTables.Registered(generation.n(), generation.generation(), type != null));
                if ("BIGINT".equals(type)
                        && GenerationTables.classOrdinalType(generation.n()).equals("INTEGER")) {
                    altered.add(generation.solutions());
                }
            }
        }
        if (altered.isEmpty()) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("DROP VIEW solution_cell");
            statement.execute("DROP VIEW solution");
            for (String table : altered) {
                statement.execute("ALTER TABLE " + table + " ALTER COLUMN class_ordinal SET DATA TYPE INTEGER");
            }
            for (String view : GenerationTables.viewStatements(registered)) {
                statement.execute(view);
            }
        }
    }

    /** The type of {@code table}'s {@code column}, upper case; null if the table does not exist. */
    private static String columnType(Connection connection, String table, String column) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT UPPER(data_type) FROM"
                + " information_schema.columns WHERE LOWER(table_name) = ? AND LOWER(column_name) = ?")) {
            query.setString(1, table);
            query.setString(2, column);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }
}
