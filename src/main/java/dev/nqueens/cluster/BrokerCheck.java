package dev.nqueens.cluster;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.AuthenticationFailureException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;
import dev.nqueens.failure.Failure;
import dev.nqueens.failure.InvalidInputException;
import dev.nqueens.failure.UnavailableException;
import dev.nqueens.store.Database;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import org.springframework.amqp.AmqpAuthenticationException;
import org.springframework.amqp.AmqpConnectException;
import org.springframework.amqp.AmqpIOException;
import org.springframework.amqp.AmqpTimeoutException;
import org.springframework.boot.amqp.autoconfigure.RabbitProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ExceptionTypeFilter;

/**
 * Opens one connection to the broker the {@code spring.rabbitmq.*} settings name (read as Boot
 * reads them, {@link RabbitProperties}: {@code addresses} or {@code host} and {@code port}), before
 * anything else happens, so that an unreachable broker or a refused login ends a command at once with one
 * line (and exit 4) instead of a run that cannot hand out its partitions.
 */
public final class BrokerCheck {

    /**
     * The broker cannot be reached or closed the connection, by the client's types in the failure or
     * its causes; unless one of them is a refused login, which waiting does not mend.
     */
    private static final ExceptionTypeFilter UNREACHABLE = new ExceptionTypeFilter(
            List.of(
                    BrokerUnavailableException.class,
                    AmqpConnectException.class,
                    AmqpIOException.class,
                    AmqpTimeoutException.class,
                    ShutdownSignalException.class,
                    java.net.ConnectException.class,
                    java.net.SocketException.class,
                    TimeoutException.class),
            List.of(
                    AuthenticationFailureException.class,
                    AmqpAuthenticationException.class,
                    BrokerLoginRefusedException.class),
            false);

    private BrokerCheck() {}

    /**
     * Cluster mode needs a database every machine shares (PostgreSQL, not the embedded H2 file)
     * and a broker login of the operator's choosing: RabbitMQ's guest login is not assumed.
     *
     * @throws InvalidInputException saying which is missing
     */
    public static void checkClusterSettings(Environment environment) {
        String url = Objects.requireNonNullElse(Database.configured(environment).getUrl(), "");
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new InvalidInputException(
                    "cluster mode needs a shared PostgreSQL database, but spring.datasource.url is "
                            + url.replaceAll("[;?].*$", "") + " (workers on other machines cannot share it)");
        }
        // The login is given in username and password, or in the first address (amqp://user:secret@host).
        List<String> addresses = rabbit(environment).getAddresses();
        boolean inAddress =
                addresses != null && !addresses.isEmpty() && addresses.get(0).contains("@");
        if (!inAddress
                && (!environment.containsProperty("spring.rabbitmq.username")
                        || !environment.containsProperty("spring.rabbitmq.password"))) {
            throw new InvalidInputException("cluster mode needs the broker's login in spring.rabbitmq.username and"
                    + " spring.rabbitmq.password (SPRING_RABBITMQ_USERNAME, _PASSWORD); RabbitMQ's guest login is"
                    + " not assumed");
        }
    }

    /**
     * @throws BrokerUnavailableException naming the broker (never the credentials) and the reason
     * @throws BrokerLoginRefusedException if it refuses the login
     */
    public static void check(Environment environment) {
        RabbitProperties rabbit = rabbit(environment);
        ConnectionFactory factory = factory(rabbit);
        try (Connection connection = connect(factory, rabbit, "nqueens-check")) {
            connection.getServerProperties();
        } catch (IOException e) {
            throw unavailable(factory, e);
        }
    }

    /**
     * Whether {@code failure}, or one of its causes, says the broker cannot be reached or has closed
     * the connection (it stopped, restarted or is cut off): by the client's types, not their wording.
     * A refused login is not: waiting does not mend it.
     */
    public static boolean isUnreachable(Throwable failure) {
        return UNREACHABLE.match(failure, true);
    }

    /**
     * What waits in {@code queue}: "3 request(s) waiting, 2 consumer(s)", "not declared yet", or
     * why the broker could not be asked.
     */
    static String queueState(Environment environment, String queue) {
        RabbitProperties rabbit = rabbit(environment);
        ConnectionFactory factory = factory(rabbit);
        try (Connection connection = connect(factory, rabbit, "nqueens-cluster")) {
            Channel channel = connection.createChannel();
            AMQP.Queue.DeclareOk state = channel.queueDeclarePassive(queue);
            return state.getMessageCount() + " request(s) waiting, " + state.getConsumerCount() + " consumer(s)";
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException shutdown
                    && shutdown.getReason() instanceof AMQP.Channel.Close close
                    && close.getReplyCode() == AMQP.NOT_FOUND) {
                return "not declared yet";
            }
            return "the broker cannot be asked (" + Failure.rootMessage(e) + ")";
        } catch (BrokerUnavailableException | BrokerLoginRefusedException e) {
            return "the broker cannot be asked (" + e.getMessage() + ")";
        }
    }

    private static RabbitProperties rabbit(Environment environment) {
        return Binder.get(environment).bindOrCreate("spring.rabbitmq", RabbitProperties.class);
    }

    private static ConnectionFactory factory(RabbitProperties rabbit) {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(rabbit.determineHost());
        factory.setPort(rabbit.determinePort());
        factory.setUsername(rabbit.determineUsername());
        factory.setPassword(rabbit.determinePassword());
        factory.setVirtualHost(Objects.requireNonNullElse(rabbit.determineVirtualHost(), "/"));
        factory.setConnectionTimeout(10_000);
        factory.setAutomaticRecoveryEnabled(false);
        try {
            if (rabbit.getSsl().determineEnabled()) {
                factory.useSslProtocol();
            }
        } catch (java.security.GeneralSecurityException e) {
            throw unavailable(factory, e);
        }
        return factory;
    }

    /** A connection to the first address that answers, in the order the settings give them. */
    private static Connection connect(ConnectionFactory factory, RabbitProperties rabbit, String name) {
        List<Address> addresses =
                rabbit.determineAddresses().stream().map(Address::parseAddress).toList();
        try {
            return factory.newConnection(addresses, name);
        } catch (AuthenticationFailureException e) {
            throw new BrokerLoginRefusedException("the broker " + describe(factory) + " refused the login of user '"
                    + factory.getUsername() + "' (check spring.rabbitmq.username and .password)");
        } catch (IOException | TimeoutException | RuntimeException e) {
            throw unavailable(factory, e);
        }
    }

    private static BrokerUnavailableException unavailable(ConnectionFactory factory, Exception e) {
        return new BrokerUnavailableException(
                "cannot reach the broker " + describe(factory) + ": " + Failure.rootMessage(e));
    }

    private static String describe(ConnectionFactory factory) {
        return "amqp://" + factory.getHost() + ":" + factory.getPort() + factory.getVirtualHost();
    }

    /** The broker cannot be reached (exit 4; a starting worker waits for it). */
    public static final class BrokerUnavailableException extends UnavailableException {
        BrokerUnavailableException(String message) {
            super(message);
        }
    }

    /** The broker refuses the login (exit 4 at once: waiting does not mend it). */
    public static final class BrokerLoginRefusedException extends UnavailableException {
        BrokerLoginRefusedException(String message) {
            super(message);
        }
    }
}
