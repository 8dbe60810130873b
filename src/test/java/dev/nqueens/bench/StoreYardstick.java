package dev.nqueens.bench;

import java.io.BufferedReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * The yardstick of bench/store.sh: the database's own load of the rows one size's store wrote,
 * read back from its exported CSV files ({@code solutions-nNN.csv}, {@code fundamental-nNN.csv}),
 * into tables with the same keys and indexes, timed from the first row to the last index.
 *
 * <ul>
 * <li>{@code h2 DIR FOLDER}: H2's bulk path, JDBC batches of 10,000 rows in key order (one
 * transaction each) into tables whose unique keys exist from the start (the primary key, the
 * unique placement), then the class index, as the store has them; a fresh file {@code DIR/load},
 * with the default URL's settings;</li>
 * <li>{@code postgresql URL FOLDER}: {@code COPY ... FROM STDIN (FORMAT csv)} of the two files into
 * new tables without indexes, then the keys and indexes the store builds after its load and
 * {@code VACUUM (ANALYZE)}, as the store ends;</li>
 * <li>{@code create URL NAME}, {@code drop URL NAME}: a fresh database NAME on the server of the
 * maintenance database URL, and away with it.</li>
 * </ul>
 * The loads print {@code seconds=S rows=R}. Not part of the product.
 */
public final class StoreYardstick {

    private StoreYardstick() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("create") || args[0].equals("drop")) {
            try (Connection db = DriverManager.getConnection(args[1]);
                    Statement statement = db.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS " + args[2] + " WITH (FORCE)");
                if (args[0].equals("create")) {
                    statement.execute("CREATE DATABASE " + args[2]);
                }
            }
            return;
        }
        Path folder = Path.of(args[2]);
        Path solutions = only(folder, "solutions-n");
        Path classes = only(folder, "fundamental-n");
        long rows;
        try (var lines = Files.lines(solutions);
                var more = Files.lines(classes)) {
            rows = lines.count() - 1 + more.count() - 1;
        }
        double seconds = args[0].equals("h2")
                ? h2(Path.of(args[1]), solutions, classes)
                : postgresql(args[1], solutions, classes);
        System.out.printf("seconds=%.2f rows=%d%n", seconds, rows);
    }

    private static Path only(Path folder, String prefix) throws Exception {
        try (var files = Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)
                            && f.toString().endsWith(".csv"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no " + prefix + "*.csv in " + folder));
        }
    }

    private static double h2(Path dir, Path solutions, Path classes) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("load").toAbsolutePath() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE"
                + ";DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_ON_EXIT=FALSE;MAX_COMPACT_TIME=0;COMPRESS=TRUE";
        try (Connection db = DriverManager.getConnection(url, "sa", "");
                Statement statement = db.createStatement()) {
            db.setAutoCommit(false);
            statement.execute("CREATE TABLE load_class (class_ordinal BIGINT NOT NULL PRIMARY KEY,"
                    + " placement VARCHAR(96) NOT NULL, orbit_size SMALLINT NOT NULL, symmetry VARCHAR(6) NOT NULL)");
            statement.execute("CREATE UNIQUE INDEX load_class_placement ON load_class (placement)");
            statement.execute("CREATE TABLE load_solution (ordinal BIGINT NOT NULL PRIMARY KEY,"
                    + " placement VARCHAR(96) NOT NULL, class_ordinal INTEGER NOT NULL, orbit_size SMALLINT NOT NULL,"
                    + " symmetry VARCHAR(6) NOT NULL)");
            statement.execute("CREATE UNIQUE INDEX load_solution_placement ON load_solution (placement)");
            db.commit();
            long start = System.nanoTime();
            insert(db, classes, "INSERT INTO load_class VALUES (?, ?, ?, ?)", 4);
            insert(db, solutions, "INSERT INTO load_solution VALUES (?, ?, ?, ?, ?)", 5);
            statement.execute("CREATE INDEX load_solution_class ON load_solution (class_ordinal, orbit_size)");
            db.commit();
            return (System.nanoTime() - start) / 1e9;
        }
    }

    /** Batches of 10,000 rows, each committed: the CSV's columns bound as numbers and texts. */
    private static void insert(Connection db, Path csv, String sql, int columns) throws Exception {
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.US_ASCII);
                PreparedStatement insert = db.prepareStatement(sql)) {
            in.readLine();
            int batch = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                List<String> values = split(line);
                for (int i = 0; i < columns; i++) {
                    String value = values.get(i);
                    if (i == 1 || i == columns - 1) {
                        insert.setString(i + 1, value);
                    } else {
                        insert.setLong(i + 1, Long.parseLong(value));
                    }
                }
                insert.addBatch();
                if (++batch == 10_000) {
                    insert.executeBatch();
                    db.commit();
                    batch = 0;
                }
            }
            insert.executeBatch();
            db.commit();
        }
    }

    /** The fields of one line of the export's CSV (a placement is quoted when it holds a space). */
    private static List<String> split(String line) {
        List<String> values = new java.util.ArrayList<>(5);
        int start = 0;
        while (start <= line.length()) {
            if (start < line.length() && line.charAt(start) == '"') {
                int close = line.indexOf('"', start + 1);
                values.add(line.substring(start + 1, close));
                start = close + 2;
            } else {
                int comma = line.indexOf(',', start);
                int end = comma < 0 ? line.length() : comma;
                values.add(line.substring(start, end));
                start = end + 1;
            }
        }
        return values;
    }

    private static double postgresql(String url, Path solutions, Path classes) throws Exception {
        try (Connection db = DriverManager.getConnection(url);
                Statement statement = db.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS load_solution, load_class");
            statement.execute("CREATE TABLE load_class (class_ordinal BIGINT NOT NULL, placement VARCHAR(96) NOT NULL,"
                    + " orbit_size SMALLINT NOT NULL, symmetry VARCHAR(6) NOT NULL)");
            statement.execute("CREATE TABLE load_solution (ordinal BIGINT NOT NULL, placement VARCHAR(96) NOT NULL,"
                    + " class_ordinal INTEGER NOT NULL, orbit_size SMALLINT NOT NULL, symmetry VARCHAR(6) NOT NULL)");
            long start = System.nanoTime();
            var copy = db.unwrap(PGConnection.class).getCopyAPI();
            try (Reader in = Files.newBufferedReader(classes, StandardCharsets.US_ASCII)) {
                copy.copyIn("COPY load_class FROM STDIN (FORMAT csv, HEADER true)", in);
            }
            try (Reader in = Files.newBufferedReader(solutions, StandardCharsets.US_ASCII)) {
                copy.copyIn("COPY load_solution FROM STDIN (FORMAT csv, HEADER true)", in);
            }
            for (String index : List.of(
                    "SET maintenance_work_mem = '256MB'",
                    "CREATE UNIQUE INDEX load_class_pk ON load_class (class_ordinal) WITH (fillfactor = 100)",
                    "CREATE INDEX load_class_placement ON load_class USING brin (placement)"
                            + " WITH (pages_per_range = 32)",
                    "CREATE UNIQUE INDEX load_solution_pk ON load_solution (ordinal) WITH (fillfactor = 100)",
                    "CREATE INDEX load_solution_placement ON load_solution USING brin (placement)"
                            + " WITH (pages_per_range = 32)",
                    "CREATE INDEX load_solution_class ON load_solution (class_ordinal, orbit_size) WITH (fillfactor = 100)",
                    "VACUUM (ANALYZE) load_class, load_solution")) {
                statement.execute(index);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            statement.execute("DROP TABLE load_solution, load_class");
            return seconds;
        }
    }
}
