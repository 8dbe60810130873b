package dev.nqueens.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AuthenticationFailureException;
import dev.nqueens.failure.InvalidInputException;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.AmqpConnectException;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The broker settings as Boot reads them: {@code addresses} before {@code host}, a login in an address. */
class BrokerCheckTests {

    private static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/nqueens";

    @Test
    void theAddressesAreTriedNotTheDefaultHost() throws IOException {
        int closed = closedPort();
        StandardEnvironment environment = environment(Map.of(
                "spring.rabbitmq.addresses",
                "127.0.0.1:" + closed,
                "spring.rabbitmq.username",
                "nqueens",
                "spring.rabbitmq.password",
                "secret"));
        assertThatThrownBy(() -> BrokerCheck.check(environment))
                .isInstanceOf(BrokerCheck.BrokerUnavailableException.class)
                .hasMessageContaining("amqp://127.0.0.1:" + closed + "/")
                .hasMessageNotContaining("secret");
    }

    @Test
    void aLoginInTheFirstAddressIsALogin() {
        assertThatCode(() -> BrokerCheck.checkClusterSettings(environment(Map.of(
                        "spring.datasource.url",
                        POSTGRES,
                        "spring.rabbitmq.addresses",
                        "amqp://nqueens:secret@10.0.0.5:5672"))))
                .doesNotThrowAnyException();
    }

    @Test
    void noLoginIsRefusedRatherThanGuestAssumed() {
        assertThatThrownBy(() -> BrokerCheck.checkClusterSettings(environment(
                        Map.of("spring.datasource.url", POSTGRES, "spring.rabbitmq.addresses", "10.0.0.5:5672"))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContainingAll("spring.rabbitmq.username", "spring.rabbitmq.password");
    }

    @Test
    void anEmbeddedFileCannotBeShared() {
        assertThatThrownBy(() -> BrokerCheck.checkClusterSettings(environment(Map.of(
                        "spring.datasource.url",
                        "jdbc:h2:file:./data/nqueens;MODE=PostgreSQL",
                        "spring.rabbitmq.username",
                        "nqueens",
                        "spring.rabbitmq.password",
                        "secret"))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContainingAll("PostgreSQL", "spring.datasource.url", "jdbc:h2:file:./data/nqueens");
    }

    @Test
    void anUnreachableBrokerIsFoundAmongTheCausesUnlessTheLoginWasRefused() {
        assertThat(BrokerCheck.isUnreachable(new IllegalStateException(
                        new AmqpConnectException(new java.net.ConnectException("Connection refused")))))
                .isTrue();
        assertThat(BrokerCheck.isUnreachable(
                        new AmqpConnectException(new AuthenticationFailureException("ACCESS_REFUSED"))))
                .isFalse();
        assertThat(BrokerCheck.isUnreachable(new IllegalStateException("no broker involved")))
                .isFalse();
    }

    private static StandardEnvironment environment(Map<String, Object> settings) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", settings));
        return environment;
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
