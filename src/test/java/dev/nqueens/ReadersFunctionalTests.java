package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader cannot take the holder of the H2 file down: a reading statement that exhausts memory
 * through {@code serve} fails alone (its heap pinned small), while the pages, the API and the health
 * go on; the public read-only login of db-server's clients cannot log in to a holder where the job
 * runs; and a db-server client that changes that login's password locks out no reading command.
 */
class ReadersFunctionalTests {

    private static final Duration STARTUP = Duration.ofMinutes(2);
    /** A grouping whose groups do not fit a small heap: H2 keeps them in memory. */
    private static final String GREEDY =
            "SELECT MOD(\"X\" * 7919, 50000001) AS k, COUNT(*) FROM SYSTEM_RANGE(1, 50000000)" + " GROUP BY k";

    @TempDir
    Path work;

    @Test
    void aReadingStatementThatExhaustsServesMemoryFailsAloneAndServeGoesOn() throws Exception {
        assertThat(NqueensProcess.run(work, "run", "--sizes", "1-8").exitCode()).isZero();
        int port = ServedResults.freePort();
        NqueensProcess serve = NqueensProcess.start(
                work,
                Map.of("NQUEENS_JAVA_OPTS", NqueensProcess.TEST_OPTIONS + " -Xmx160m"),
                "serve",
                "--port",
                String.valueOf(port));
        try {
            serve.awaitLine(line -> line.startsWith("Serving"), STARTUP);

            NqueensProcess.Result greedy = NqueensProcess.run(work, "sql", GREEDY, "--format", "csv");
            assertThat(greedy.exitCode()).as(greedy.out() + greedy.err()).isEqualTo(2);
            assertThat(greedy.err().lines()).hasSize(1);

            for (String path : new String[] {"/", "/api/sizes", "/actuator/health", "/actuator/health/nightly"}) {
                assertThat(status(port, path)).as(path).isEqualTo(200);
            }
            NqueensProcess.Result after = NqueensProcess.run(
                    work, "sql", "SELECT total_solutions FROM board_summary" + " WHERE n = 8", "--format", "csv");
            assertThat(after.out()).isEqualTo("total_solutions\n92\n");

            String url = "jdbc:h2:tcp://127.0.0.1:" + holderPort() + "/nqueens";
            assertThatThrownBy(() -> DriverManager.getConnection(url, "reader", "reader"))
                    .as("the public login of db-server's clients is no login of serve's")
                    .isInstanceOf(SQLException.class);
        } finally {
            assertThat(serve.terminate().exitCode()).isIn(0, 143);
        }
    }

    @Test
    void aClientChangingTheReadOnlyPasswordLocksOutNoReadingCommandAndARunIsRefusedNamingTheHolder() throws Exception {
        assertThat(NqueensProcess.run(work, "run", "--sizes", "1-8").exitCode()).isZero();
        int tcpPort = ServedResults.freePort();
        NqueensProcess server = NqueensProcess.start(
                work,
                "db-server",
                "--pg-port",
                String.valueOf(ServedResults.freePort()),
                "--tcp-port",
                String.valueOf(tcpPort));
        try {
            server.awaitLine(line -> line.contains("psql \"host="), STARTUP);
            try (Connection client = DriverManager.getConnection(
                            "jdbc:h2:tcp://127.0.0.1:" + tcpPort + "/nqueens", "reader", "reader");
                    Statement statement = client.createStatement()) {
                statement.execute("ALTER USER reader SET PASSWORD 'zzz'");
            }
            for (String[] reading : new String[][] {
                {"sql", "SELECT COUNT(*) FROM board_summary"}, {"show", "8", "--limit", "1"}, {"history"}, {"verify"}
            }) {
                NqueensProcess.Result result = NqueensProcess.run(work, reading);
                assertThat(result.exitCode())
                        .as(String.join(" ", reading) + ": " + result.err())
                        .isZero();
            }

            work.resolve("data").toFile().setWritable(false, false);
            NqueensProcess.Result refused = NqueensProcess.run(work, "run", "--sizes", "9");
            assertThat(refused.exitCode()).isEqualTo(3);
            assertThat(refused.err().lines()).hasSize(1);
            assertThat(refused.err()).contains("db-server").contains(String.valueOf(server.pid()));
        } finally {
            work.resolve("data").toFile().setWritable(true, true);
            assertThat(server.terminate().exitCode()).isIn(0, 143);
        }
    }

    private int holderPort() throws Exception {
        Properties marker = new Properties();
        try (var in = Files.newInputStream(work.resolve("data/nqueens.holder"))) {
            marker.load(in);
        }
        return Integer.parseInt(marker.getProperty("tcp-port"));
    }

    private static int status(int port, String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
