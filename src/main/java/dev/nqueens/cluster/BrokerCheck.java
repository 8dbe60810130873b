package dev.nqueens.cluster;

import com.rabbitmq.client.AuthenticationFailureException;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.springframework.core.env.Environment;

/**
 * Opens one connection to the broker the {@code spring.rabbitmq.*} settings name, before anything
 * else happens, so that an unreachable broker or a refused login ends a command at once with one
 * line (and exit 4) instead of a run that cannot hand out its partitions.
 */
public final class BrokerCheck {

    private BrokerCheck() {
    }

    /**
     * @throws BrokerUnavailableException naming the broker (never the credentials) and the reason
     */
    public static void check(Environment environment) {
        ConnectionFactory factory = new ConnectionFactory();
        String host = environment.getProperty("spring.rabbitmq.host", "localhost");
        int port = environment.getProperty("spring.rabbitmq.port", Integer.class, 5672);
        factory.setHost(host);
        factory.setPort(port);
        factory.setUsername(environment.getProperty("spring.rabbitmq.username", "guest"));
        factory.setPassword(environment.getProperty("spring.rabbitmq.password", "guest"));
        factory.setVirtualHost(environment.getProperty("spring.rabbitmq.virtual-host", "/"));
        factory.setConnectionTimeout(10_000);
        factory.setAutomaticRecoveryEnabled(false);
        String broker = "amqp://" + host + ":" + port + factory.getVirtualHost();
        try {
            if (environment.getProperty("spring.rabbitmq.ssl.enabled", Boolean.class, false)) {
                factory.useSslProtocol();
            }
            try (Connection connection = factory.newConnection("nqueens-check")) {
                connection.getServerProperties();
            }
        } catch (AuthenticationFailureException e) {
            throw new BrokerUnavailableException("the broker " + broker + " refused the login of user '"
                    + factory.getUsername() + "' (check spring.rabbitmq.username and .password)");
        } catch (IOException | TimeoutException | java.security.GeneralSecurityException | RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw new BrokerUnavailableException("cannot reach the broker " + broker + ": "
                    + (root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage()));
        }
    }

    /** The broker cannot be reached or refuses the login. */
    public static final class BrokerUnavailableException extends IllegalStateException {
        BrokerUnavailableException(String message) {
            super(message);
        }
    }
}
