package dev.nqueens;

import dev.nqueens.job.RunLock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The databases the integration tests run on: a fresh H2 file in PostgreSQL mode (always), and a
 * fresh database on the PostgreSQL server named by the environment variable
 * {@value #POSTGRES_URL_VARIABLE} (a JDBC URL of the server's maintenance database; {@code .ci/run}
 * starts one). Without it the PostgreSQL tests are skipped and say so.
 */
public final class TestDatabases {

    public static final String POSTGRES_URL_VARIABLE = "NQUEENS_TEST_POSTGRES_URL";
    public static final String POSTGRES_SKIPPED = "PostgreSQL tests skipped: set " + POSTGRES_URL_VARIABLE
            + " (e.g. jdbc:postgresql://127.0.0.1:55432/postgres?user=postgres) or run .ci/run";

    private TestDatabases() {}

    /**
     * The database the jar used when started with {@code environment} in {@code work}: the
     * PostgreSQL database its {@code SPRING_DATASOURCE_URL} names, or the H2 file in its working directory.
     */
    public static Connection open(java.util.Map<String, String> environment, Path work) throws SQLException {
        if (environment.containsKey("SPRING_DATASOURCE_URL")) {
            return DriverManager.getConnection(environment.get("SPRING_DATASOURCE_URL"), "postgres", "postgres");
        }
        return openH2(work.resolve("data/nqueens"));
    }

    /**
     * The H2 file {@code file} (without extension) opened with the owner's login: {@code sa} and
     * the password the commands that hold a file keep beside it ({@code nqueens.password}), or none.
     */
    public static Connection openH2(Path file) throws SQLException {
        return DriverManager.getConnection(h2Url(file), "sa", ownerPassword(file));
    }

    /** The owner's password kept beside the H2 file {@code file} (without extension), or none. */
    public static String ownerPassword(Path file) {
        Path kept = Path.of(file + ".password");
        try {
            return java.nio.file.Files.exists(kept)
                    ? java.nio.file.Files.readString(kept).strip()
                    : "";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A session as the reading login ({@link dev.nqueens.h2.ReadingLogin}) on the H2 file a holder
     * in {@code directory} serves over TCP, as the reading commands open it.
     */
    public static Connection readingThroughHolder(Path directory) throws SQLException {
        Path data = directory.resolve("data/nqueens");
        dev.nqueens.h2.H2File file = dev.nqueens.h2.H2File.of(h2Url(data)).orElseThrow();
        String url = dev.nqueens.h2.HeldFile.holder(file)
                .orElseThrow(() -> new IllegalStateException("nothing holds " + data))
                .url(file);
        return DriverManager.getConnection(
                url, dev.nqueens.h2.ReadingLogin.USER, dev.nqueens.h2.ReadingLogin.password(ownerPassword(data)));
    }

    /** The first column of the first row of a query: a count, a sum, a value. */
    public static long count(Connection db, String sql) throws SQLException {
        try (Statement statement = db.createStatement();
                java.sql.ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    /**
     * The tables of size {@code n}'s generation: the published one, else the one being built.
     *
     * @return {@code solution_nNN_gG} and {@code fundamental_nNN_gG}
     */
    public static Tables tablesOf(Connection db, int n) throws SQLException {
        long generation = count(
                db,
                "SELECT COALESCE((SELECT generation FROM board_summary WHERE n = " + n
                        + "), (SELECT generation FROM building_generation WHERE n = " + n + "), 0)");
        if (generation == 0) {
            throw new IllegalStateException("n=" + n + " has no generation");
        }
        return new Tables(n, (int) generation);
    }

    /** The tables of generation {@code generation} of size {@code n}. */
    public record Tables(int n, int generation) {

        public String solutions() {
            return dev.nqueens.store.GenerationTables.solutionTable(n, generation);
        }

        public String classes() {
            return dev.nqueens.store.GenerationTables.fundamentalTable(n, generation);
        }
    }

    /**
     * The URL tests open an H2 file with. {@code MAX_COMPACT_TIME=0}, as in the product's default
     * URL: a test that reads the jar's database must not rewrite it when it closes. H2 2.3.232
     * compacts the file on close by default, and under the test JVM's {@code -ea} that compaction
     * can fail half-way on an internal assertion ({@code RandomAccessStore.moveChunkInside}, H2
     * issues 4086 and 4247) and drop the newest chunks: WindowFunctionalTests lost the sizes the
     * jar had just published.
     */
    public static String h2Url(Path file) {
        return "jdbc:h2:file:" + file.toAbsolutePath()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;MAX_COMPACT_TIME=0;COMPRESS=TRUE";
    }

    public static void useH2(DynamicPropertyRegistry registry, Path folder) {
        registry.add("spring.datasource.url", () -> h2Url(folder.resolve("db/nqueens")));
        registry.add("spring.datasource.username", () -> "sa");
        registry.add("spring.datasource.password", () -> "");
    }

    /**
     * Creates (or re-creates) database {@code name} on the test server and returns the environment
     * that points the jar at it.
     */
    public static java.util.Map<String, String> postgresEnvironment(String name) {
        java.util.Map<String, String> settings = new java.util.HashMap<>();
        usePostgres(
                new DynamicPropertyRegistry() {
                    @Override
                    public void add(String key, java.util.function.Supplier<Object> value) {
                        settings.put(key, String.valueOf(value.get()));
                    }
                },
                name);
        return java.util.Map.of(
                "SPRING_DATASOURCE_URL",
                settings.get("spring.datasource.url"),
                "SPRING_DATASOURCE_USERNAME",
                "postgres",
                "SPRING_DATASOURCE_PASSWORD",
                "postgres");
    }

    /**
     * Takes the run lock of the PostgreSQL database {@code environment} names, in this process with
     * its heartbeat going, as a run on another machine holds it: the commands the test starts find
     * the database in use, naming this process ({@code ThisProcess.id()}).
     */
    public static HeldRunLock holdRunLock(java.util.Map<String, String> environment) {
        SingleConnectionDataSource connection = new SingleConnectionDataSource(
                environment.get("SPRING_DATASOURCE_URL"),
                environment.get("SPRING_DATASOURCE_USERNAME"),
                environment.get("SPRING_DATASOURCE_PASSWORD"),
                true);
        return new HeldRunLock(connection, new RunLock(connection).acquire(line -> {}));
    }

    /** A run lock {@link #holdRunLock} took; closing it (once or again) releases it. */
    public record HeldRunLock(SingleConnectionDataSource connection, RunLock.Held held) implements AutoCloseable {
        @Override
        public void close() {
            held.close();
            connection.destroy();
        }
    }

    /**
     * Replaces database {@code name} on the test server with a copy of {@code template} (PostgreSQL's
     * {@code CREATE DATABASE … TEMPLATE}: a copy of its files, nobody may be connected to it).
     */
    public static void copyPostgres(String template, String name) {
        recreate(name, " TEMPLATE " + template, "cannot copy test database " + template + " to " + name);
    }

    /** Drops database {@code name} on the test server if it exists and creates it again. */
    private static void recreate(String name, String creation, String failure) {
        try (Connection connection = DriverManager.getConnection(System.getenv(POSTGRES_URL_VARIABLE));
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + name + creation);
        } catch (SQLException e) {
            throw new IllegalStateException(failure + ": " + e.getMessage(), e);
        }
    }

    public static boolean postgresAvailable() {
        String url = System.getenv(POSTGRES_URL_VARIABLE);
        return url != null && !url.isBlank();
    }

    /**
     * Creates (or re-creates) database {@code name} on the test server and points the context at it.
     *
     * @throws IllegalStateException if the server cannot be reached
     */
    public static void usePostgres(DynamicPropertyRegistry registry, String name) {
        recreate(name, "", "cannot create test database " + name);
        String maintenanceUrl = System.getenv(POSTGRES_URL_VARIABLE);
        String databaseUrl = maintenanceUrl.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
        String separator = databaseUrl.contains("?") ? "&" : "?";
        registry.add("spring.datasource.url", () -> databaseUrl + separator + "reWriteBatchedInserts=true");
    }
}
