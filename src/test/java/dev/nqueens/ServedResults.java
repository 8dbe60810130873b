package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

/**
 * A working directory where the jar has run sizes 1-10 (1-8 stored with every solution, 9 as
 * representatives, 10 as counts only) and then serves them: {@code ./nqueens serve} on a free port.
 */
final class ServedResults implements AutoCloseable {

    static final String SIZES = "1-10";

    final Path directory;
    final int port;
    final NqueensProcess serve;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ServedResults(Path directory, int port, NqueensProcess serve) {
        this.directory = directory;
        this.port = port;
        this.serve = serve;
    }

    /** Runs the sizes, writes {@code config/application.yml} with {@code yaml}, starts serve and waits for it. */
    static ServedResults start(Path directory, String yaml) throws Exception {
        NqueensProcess.Result run = NqueensProcess.run(
                directory, "run", "--sizes", SIZES, "--store-all-up-to", "8", "--store-fundamental-up-to", "9");
        assertThat(run.exitCode()).as(run.err()).isZero();
        Files.createDirectories(directory.resolve("config"));
        Files.writeString(directory.resolve("config/application.yml"), yaml);
        int port = freePort();
        // Its own temporary folder (empty), so that a test can see what serve leaves there.
        Path temporary = Files.createDirectories(directory.resolve("tmp"));
        NqueensProcess serve = NqueensProcess.start(
                directory,
                Map.of("NQUEENS_JAVA_OPTS", NqueensProcess.TEST_OPTIONS + " -Djava.io.tmpdir=" + temporary),
                "serve",
                "--port",
                String.valueOf(port));
        serve.awaitLine(line -> line.startsWith("Serving http://127.0.0.1:" + port + "/"), Duration.ofMinutes(2));
        return new ServedResults(directory, port, serve);
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    HttpResponse<byte[]> get(String path, String... headers) throws IOException, InterruptedException {
        return send("GET", path, headers);
    }

    HttpResponse<byte[]> send(String method, String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(path)))
                .timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    /**
     * Sends {@code GET <rawPath>} exactly as written (no client normalises it) and returns the status
     * line, headers and body.
     */
    String raw(String rawPath) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + rawPath + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    static String sha256(Path file) throws Exception {
        return sha256(Files.readAllBytes(file));
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws Exception {
        if (serve.isAlive()) {
            serve.terminate();
        }
    }

    /**
     * What the database in {@code directory} holds: every table's row count and the published sizes'
     * summaries, read through the holder's H2 server with the read-only login while a command holds
     * the file, else from the file with the owner's login.
     */
    static String contents(Path directory) throws Exception {
        Path holder = directory.resolve("data/nqueens.holder");
        java.sql.Connection db;
        if (Files.exists(holder)) {
            db = TestDatabases.readingThroughHolder(directory);
        } else {
            db = TestDatabases.openH2(directory.resolve("data/nqueens"));
        }
        StringBuilder contents = new StringBuilder();
        try (db;
                java.sql.Statement statement = db.createStatement()) {
            java.util.List<String> tables = new java.util.ArrayList<>();
            try (java.sql.ResultSet rows = statement.executeQuery("SELECT table_name FROM information_schema.tables"
                    + " WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name")) {
                while (rows.next()) {
                    tables.add(rows.getString(1));
                }
            }
            for (String table : tables) {
                contents.append(table)
                        .append(' ')
                        .append(TestDatabases.count(db, "SELECT COUNT(*) FROM " + table))
                        .append('\n');
            }
            try (java.sql.ResultSet rows = statement.executeQuery("SELECT * FROM board_summary ORDER BY n")) {
                while (rows.next()) {
                    for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                        contents.append(rows.getString(column))
                                .append(column == rows.getMetaData().getColumnCount() ? "\n" : " ");
                    }
                }
            }
        }
        return contents.toString();
    }
}
