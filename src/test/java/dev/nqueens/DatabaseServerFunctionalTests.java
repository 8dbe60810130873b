package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code ./nqueens db-server} as a user runs it: the jar serving the H2 file of a real run, queried
 * by H2's JDBC driver over TCP and by {@code psql} over the PostgreSQL protocol, refusing writes,
 * blocking runs while it serves, refusing to start while the file is held or a port is taken.
 */
@Order(Integer.MAX_VALUE - 4) // middling: fifth from the back, so the last classes to start are short (see the pom)
class DatabaseServerFunctionalTests {

    private static final Duration STARTUP = Duration.ofMinutes(2);

    @TempDir
    Path workingDirectory;

    private void solveSomeSizes() throws Exception {
        NqueensProcess.Result run = nqueens("run", "--sizes", "1-8");
        assertThat(run.exitCode()).as(run.err()).isZero();
    }

    @Test
    void servesTheFileReadOnlyOverTcpAndThePostgresProtocolWhileRunsWait() throws Exception {
        solveSomeSizes();
        int pgPort = freePort();
        int tcpPort = freePort();
        NqueensProcess server = NqueensProcess.start(
                workingDirectory,
                "db-server",
                "--pg-port",
                String.valueOf(pgPort),
                "--tcp-port",
                String.valueOf(tcpPort));
        String psqlLine = server.awaitLine(line -> line.contains("psql \"host="), STARTUP);
        assertThat(psqlLine)
                .contains(
                        "psql \"host=127.0.0.1 port=" + pgPort + " dbname=nqueens user=reader" + " password=reader\"");

        String h2 = "jdbc:h2:tcp://127.0.0.1:" + tcpPort + "/nqueens";
        try (Connection reader = DriverManager.getConnection(h2, "reader", "reader");
                Statement statement = reader.createStatement()) {
            assertThat(single(statement, "SELECT total_solutions FROM board_summary WHERE n = 8"))
                    .isEqualTo("92");
            assertThat(
                            single(
                                    statement,
                                    "SELECT COUNT(*) FROM solution_cell c JOIN solution s ON s.n = c.n"
                                            + " AND s.ordinal = c.ordinal WHERE c.n = 8 AND c.queen_row = 1 AND c.queen_column = 1"))
                    .isEqualTo("4");
            assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM board_summary"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("read only");
        }
        // The owner's login takes the password generated beside the file, readable by its owner alone;
        // even with it nothing can be written: the file itself is open read-only.
        Path kept = workingDirectory.resolve("data/nqueens.password");
        assertThat(java.nio.file.Files.getPosixFilePermissions(kept))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> DriverManager.getConnection(h2, "sa", ""))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Wrong user name or password");
        try (Connection owner = DriverManager.getConnection(
                        h2, "sa", TestDatabases.ownerPassword(workingDirectory.resolve("data/nqueens")));
                Statement statement = owner.createStatement()) {
            assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM stored_generation"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("read only");
        }
        assertThatThrownBy(() -> DriverManager.getConnection(h2, "reader", "wrong"))
                .isInstanceOf(SQLException.class);

        Path psql = psql();
        if (psql != null) {
            String uri = "host=127.0.0.1 port=" + pgPort + " dbname=nqueens user=reader password=reader";
            Command read = command(
                    psql.toString(),
                    uri,
                    "-At",
                    "-c",
                    "SELECT n, total_solutions, fundamental_solutions FROM board_summary WHERE n BETWEEN 7 AND 8 ORDER BY n");
            assertThat(read.exitCode()).as(read.err()).isZero();
            assertThat(read.out()).isEqualTo("7|40|6\n8|92|12\n");
            Command write = command(psql.toString(), uri, "-c", "DELETE FROM board_summary");
            assertThat(write.exitCode()).isNotZero();
            assertThat(write.err()).contains("read only");
        } else {
            System.out.println("psql not installed: the PostgreSQL-protocol client check was left out");
        }

        NqueensProcess.Result blocked = nqueens("run", "--sizes", "9");
        assertThat(blocked.exitCode()).isEqualTo(3);
        assertThat(blocked.out()).isEmpty();
        // The holder and its pid; "one run at a time" as docs/h2.md quotes it.
        assertThat(blocked.err())
                .startsWith("nqueens: ")
                .contains("`nqueens db-server` (pid " + server.pid(), "one run at a time");
        assertThat(blocked.err().lines()).hasSize(1);

        NqueensProcess.Result stopped = server.terminate();
        assertThat(stopped.out()).contains("db-server stopped.");
        assertThat(stopped.err()).doesNotContain("\tat ");
        NqueensProcess.Result after = nqueens("run", "--sizes", "9");
        assertThat(after.exitCode()).as(after.err()).isZero();
        NqueensProcess.Result summary = nqueens("sql", "SELECT COUNT(*) AS sizes FROM board_summary");
        assertThat(summary.out()).contains("\n9\n");
    }

    @Test
    void refusesWhileAnotherProcessHoldsTheDatabase() throws Exception {
        solveSomeSizes();
        try (Connection holder = TestDatabases.openH2(workingDirectory.resolve("data/nqueens"))) {
            NqueensProcess.Result refused = nqueens(
                    "db-server", "--pg-port", String.valueOf(freePort()), "--tcp-port", String.valueOf(freePort()));
            assertThat(refused.exitCode()).isEqualTo(3);
            assertThat(refused.err()).startsWith("nqueens: ").contains("jdbc:h2:file:./data/nqueens");
            assertThat(refused.err().lines()).hasSize(1);
        }
    }

    @Test
    void refusesAPortInUseBeforeChangingAnything() throws Exception {
        solveSomeSizes();
        String before = ServedResults.contents(workingDirectory);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            NqueensProcess.Result refused =
                    nqueens("db-server", "--pg-port", String.valueOf(port), "--tcp-port", String.valueOf(freePort()));
            assertThat(refused.exitCode()).isEqualTo(2);
            // The port taken, and the option and the setting that choose another.
            assertThat(refused.err())
                    .startsWith("nqueens: ")
                    .contains(String.valueOf(port), "--pg-port", "nqueens.db-server.pg-port");
            assertThat(refused.err().lines()).hasSize(1);
        }
        assertThat(ServedResults.contents(workingDirectory)).isEqualTo(before);
        assertThat(workingDirectory.resolve("data/nqueens.holder")).doesNotExist();
    }

    @Test
    void refusesADatabaseThatIsNotAnEmbeddedFile() throws Exception {
        Files.createDirectories(workingDirectory.resolve("config"));
        Files.writeString(
                workingDirectory.resolve("config/application.yml"),
                "spring:\n  datasource:\n    url: jdbc:postgresql://127.0.0.1:9/nqueens\n");
        NqueensProcess.Result refused = nqueens("db-server");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err()).startsWith("nqueens: ").contains("jdbc:postgresql://127.0.0.1:9/nqueens");
        assertThat(refused.err().lines()).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "owner as login  | '    user: sa\n'        | nqueens.db-server.user & 'sa'",
                "empty password  | '    password: \"\"\n'  | nqueens.db-server.password & empty",
                "one port twice  | '    pg-port: 7000\n    tcp-port: 7000\n' | nqueens.db-server.pg-port & tcp-port & 7000"
            })
    void badServerSettingsGetOneLineAndOpenNothing(String name, String yaml, String named) throws Exception {
        Files.createDirectories(workingDirectory.resolve("config"));
        Files.writeString(
                workingDirectory.resolve("config/application.yml"),
                "nqueens:\n  db-server:\n" + yaml.replace("\\n", "\n"));
        NqueensProcess.Result refused = nqueens("db-server");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err()).startsWith("nqueens: ").contains(named.split(" & "));
        assertThat(refused.err().lines()).hasSize(1);
        assertThat(workingDirectory.resolve("data")).doesNotExist();
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getString(1);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** psql from the PATH or PostgreSQL's Debian folders ({@code .ci/run} installs it), or null. */
    private static Path psql() {
        List<Path> candidates = new ArrayList<>();
        for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
            candidates.add(Path.of(folder, "psql"));
        }
        return candidates.stream().filter(Files::isExecutable).findFirst().orElse(null);
    }

    private record Command(int exitCode, String out, String err) {}

    private static Command command(String... args) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(args).start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
        return new Command(
                process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private NqueensProcess.Result nqueens(String... args) throws IOException, InterruptedException {
        return NqueensProcess.run(workingDirectory, args);
    }
}
