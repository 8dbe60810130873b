package dev.nqueens;

import java.net.URI;
import java.util.Map;

/**
 * The RabbitMQ broker the cluster tests use: the one named by the environment variable
 * {@value #URI_VARIABLE} ({@code amqp://user:password@127.0.0.1:5679}; {@code .ci/run} starts one with
 * throw-away state). Without it the cluster tests are skipped and say so.
 */
public final class TestBroker {

    public static final String URI_VARIABLE = "NQUEENS_TEST_RABBITMQ_URI";
    public static final String SKIPPED = "cluster tests skipped: they need RabbitMQ and PostgreSQL; set " + URI_VARIABLE
            + " (e.g. amqp://nqueens:secret@127.0.0.1:5679) and " + TestDatabases.POSTGRES_URL_VARIABLE
            + ", or run .ci/run";

    private TestBroker() {}

    public static boolean available() {
        String uri = System.getenv(URI_VARIABLE);
        return uri != null && !uri.isBlank() && TestDatabases.postgresAvailable();
    }

    /** The environment that points the jar at the test broker. */
    public static Map<String, String> environment() {
        URI uri = URI.create(System.getenv(URI_VARIABLE));
        String[] login = uri.getUserInfo().split(":", 2);
        return Map.of(
                "SPRING_RABBITMQ_HOST",
                uri.getHost(),
                "SPRING_RABBITMQ_PORT",
                String.valueOf(uri.getPort()),
                "SPRING_RABBITMQ_USERNAME",
                login[0],
                "SPRING_RABBITMQ_PASSWORD",
                login[1]);
    }

    /** The variable naming {@code rabbitmqctl} for the test broker's node ({@code .ci/run} exports it). */
    public static final String CTL_VARIABLE = "NQUEENS_TEST_RABBITMQ_CTL";

    /** Why the test broker cannot be stopped and started here, or null if it can. */
    public static String controlMissing() {
        String ctl = System.getenv(CTL_VARIABLE);
        return ctl == null || ctl.isBlank()
                ? "set " + CTL_VARIABLE + " (e.g. rabbitmqctl -n nq5679@localhost), or run" + " .ci/run"
                : null;
    }

    /** {@code rabbitmqctl stop_app} or {@code start_app} (with {@code await_startup}) on the test broker's node. */
    public static void control(String action) throws java.io.IOException, InterruptedException {
        java.util.List<String> command = new java.util.ArrayList<>(
                java.util.List.of(System.getenv(CTL_VARIABLE).trim().split("\\s+")));
        command.add(action);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(2, java.util.concurrent.TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new java.io.IOException(String.join(" ", command) + " failed: " + output);
        }
    }

    /** A connection factory of the RabbitMQ client for the test broker, for tests that talk to it directly. */
    public static com.rabbitmq.client.ConnectionFactory connectionFactory() throws Exception {
        com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
        factory.setUri(System.getenv(URI_VARIABLE));
        return factory;
    }
}
