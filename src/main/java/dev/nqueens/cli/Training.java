package dev.nqueens.cli;

import dev.nqueens.h2.H2File;
import dev.nqueens.settings.SettingsLoader;
import dev.nqueens.store.Database;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The training run of the launcher's class-data archive (CDS, or JDK 25's AOT cache): the launcher
 * starts it when the jar or the JDK changes, with the JVM recording what it loads. It runs the
 * commands' usual paths once, in this JVM, against a throw-away database in a temporary folder:
 * help, a count, a run of the job, a rerun with nothing to compute, the reading commands (a bad
 * query and a bad size among them), and last {@code serve}, asked for its pages once; then it ends
 * the JVM, which writes the archive.
 */
final class Training {

    private Training() {}

    public static void main(String[] args) throws IOException {
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        // In the working directory, the launcher's folder of the extracted jar: the launcher deletes
        // it after the training, however it ended (and a new jar replaces the whole folder).
        Path folder = Files.createTempDirectory(Path.of("").toAbsolutePath(), "training-");
        // The jar's default database URL, with its file in that folder.
        String defaultUrl = Database.configured(
                        SettingsLoader.load(new SettingsLoader.Sources(folder, Map.of(), Map.of(), List.of())))
                .getUrl();
        Map<String, String> variables = new HashMap<>();
        variables.put(
                "SPRING_DATASOURCE_URL", H2File.of(defaultUrl).orElseThrow().url(folder.resolve("data/nqueens")));
        variables.put("NQUEENS_OUTPUT_DIR", folder.resolve("output").toString());
        Console console = new Console(folder, variables, nowhere, nowhere);
        String[][] lines = {
            {"--help"},
            {"run", "--help"},
            {"--version"},
            {"count", "10"},
            {"count", "99"},
            {"history"},
            {"run", "--sizes", "1-6,14", "--store-all-up-to", "6", "--store-fundamental-up-to", "6"},
            {"run", "--sizes", "1-6,14"},
            {"history"},
            {"show", "6", "--boards"},
            {"show", "6", "--fundamental"},
            {"show", "6"},
            {"sql", "SELECT * FROM board_summary"},
            {"sql", "SELECT * FROM solution WHERE n = 6", "--format", "csv"},
            {"sql", "SELECT * FROM solution WHERE n = 6", "--format", "json"},
            {"sql", "SELEC 1"},
            {"verify"},
            {"show", "99"}
        };
        for (String[] line : lines) {
            Main.run(line, console);
        }
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Thread serve = new Thread(() -> Main.run(new String[] {"serve", "--port", Integer.toString(port)}, console));
        serve.setDaemon(true);
        serve.start();
        for (String page : new String[] {
            "/",
            "/sizes/6",
            "/api/sizes",
            "/api/sizes/6/solutions?format=csv",
            "/files/summary.json",
            "/actuator/health",
            "/actuator/prometheus"
        }) {
            fetch(port, page, serve);
        }
        // Ends the JVM, which writes the archive (serve would run until stopped, and stops on the way
        // out); the launcher then deletes the folder.
        System.exit(0);
    }

    /** Asks {@code serve} for a page, waiting up to two minutes for it to listen (unless it ended). */
    private static void fetch(int port, String path, Thread serve) {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline && serve.isAlive()) {
            try {
                HttpURLConnection page = (HttpURLConnection)
                        URI.create("http://127.0.0.1:" + port + path).toURL().openConnection();
                try (InputStream body = page.getResponseCode() < 400 ? page.getInputStream() : page.getErrorStream()) {
                    if (body != null) {
                        body.readAllBytes();
                    }
                    return;
                }
            } catch (IOException e) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
