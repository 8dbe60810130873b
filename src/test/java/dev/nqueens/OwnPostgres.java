package dev.nqueens;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server of a test's own, which the test restarts: initialised in a temporary folder
 * with the binaries named by {@value #BIN_VARIABLE} ({@code .ci/run} exports it), run as the
 * {@code postgres} user through {@code runuser} (the tests run as root in CI; initdb refuses root),
 * listening on 127.0.0.1 at a free port (or {@value #PORT_VARIABLE}). The other tests' server is
 * left alone, so their connection pools survive.
 */
public final class OwnPostgres implements AutoCloseable {

    public static final String BIN_VARIABLE = "NQUEENS_TEST_PG_BIN";
    public static final String PORT_VARIABLE = "NQUEENS_TEST_OWN_PG_PORT";

    private final Path bin;
    private final Path folder;
    private final int port;

    private OwnPostgres(Path bin, Path folder, int port) {
        this.bin = bin;
        this.folder = folder;
        this.port = port;
    }

    /** Why such a server cannot be run here, or null if it can. */
    public static String missing() {
        String bin = System.getenv(BIN_VARIABLE);
        if (bin == null || bin.isBlank() || !Files.isExecutable(Path.of(bin, "pg_ctl"))) {
            return "set " + BIN_VARIABLE
                    + " to PostgreSQL's bin folder (e.g. /usr/lib/postgresql/15/bin), or run .ci/run";
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/runuser")) && !Files.isExecutable(Path.of("/sbin/runuser"))) {
            return "runuser is missing: the server runs as the postgres user";
        }
        return null;
    }

    /** Initialises and starts a server, and creates {@code database} on it. */
    public static OwnPostgres start(String database) throws IOException, InterruptedException, SQLException {
        Path folder = Files.createTempDirectory("nqueens-own-pg");
        run("chown", "postgres", folder.toString());
        String configured = System.getenv(PORT_VARIABLE);
        int port = configured == null || configured.isBlank() ? freePort() : Integer.parseInt(configured);
        OwnPostgres server = new OwnPostgres(Path.of(System.getenv(BIN_VARIABLE)), folder, port);
        server.asPostgres(
                "initdb",
                "-D",
                folder.resolve("data").toString(),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8");
        server.startAgain();
        try (Connection db = DriverManager.getConnection(server.url("postgres"), "postgres", "postgres");
                Statement statement = db.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
        }
        return server;
    }

    /** Creates another database on it. */
    public void create(String database) throws SQLException {
        try (Connection db = DriverManager.getConnection(url("postgres"), "postgres", "postgres");
                Statement statement = db.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
        }
    }

    /** The JDBC URL of a database on it. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** The environment that points the jar at a database on it. */
    public Map<String, String> environment(String database) {
        return Map.of(
                "SPRING_DATASOURCE_URL",
                url(database) + "?reWriteBatchedInserts=true",
                "SPRING_DATASOURCE_USERNAME",
                "postgres",
                "SPRING_DATASOURCE_PASSWORD",
                "postgres");
    }

    /**
     * {@code pg_ctl restart -m fast}: every session is ended at once, the server stops and starts
     * again. Returns how long it took.
     */
    public Duration restart() throws IOException, InterruptedException {
        long start = System.nanoTime();
        pgCtl("restart", "-m", "fast", "-l", folder.resolve("log").toString(), "-o", options());
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * {@code pg_ctl stop -m fast}, the first half of a restart: every session is ended at once and the
     * server is down until {@link #startAgain()}.
     */
    public void stop() throws IOException, InterruptedException {
        pgCtl("stop", "-m", "fast");
    }

    /** Starts the server (again, after {@link #stop()}) and waits until it takes connections. */
    public void startAgain() throws IOException, InterruptedException {
        pgCtl("start", "-l", folder.resolve("log").toString(), "-o", options());
    }

    private String options() {
        return "-c listen_addresses=127.0.0.1 -p " + port + " -k " + folder;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            pgCtl("stop", "-m", "immediate");
        } finally {
            run("rm", "-rf", folder.toString());
        }
    }

    private void pgCtl(String... args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of("pg_ctl", "-D", folder.resolve("data").toString(), "-w"));
        command.addAll(List.of(args));
        asPostgres(command.toArray(String[]::new));
    }

    private void asPostgres(String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(
                "runuser", "-u", "postgres", "--", bin.resolve(command[0]).toString()));
        line.addAll(List.of(command).subList(1, command.length));
        run(line.toArray(String[]::new));
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
