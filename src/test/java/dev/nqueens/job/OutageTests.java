package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An outage is said once when it begins and once when it ends, however many uses fail in between. */
class OutageTests {

    @Test
    void saysOnceEachWayWithTheReasonAndTheTimeAway() throws InterruptedException {
        List<String> said = new ArrayList<>();
        Outage database = new Outage("the database", said::add);
        database.succeeded();
        assertThat(said).isEmpty();
        assertThat(database.awayFor()).isZero();

        for (int use = 0; use < 5; use++) {
            database.failed(new IllegalStateException("wrapped", new SQLException("Connection to 127.0.0.1:5432 refused."
                    + "\nCheck that the hostname and port are correct", "08001")));
        }
        Thread.sleep(20);
        assertThat(database.awayFor()).isGreaterThanOrEqualTo(Duration.ofMillis(20));
        database.succeeded();
        database.succeeded();
        database.failed(new ConnectException());

        assertThat(said).containsExactly("the database went away: Connection to 127.0.0.1:5432 refused.",
                said.get(1), "the database went away: ConnectException");
        assertThat(said.get(1)).matches("the database is back after 0\\.\\d\\d s");
        assertThat(database.episodes()).isEqualTo(2);
        assertThat(database.lastReason()).isEqualTo("ConnectException");
    }
}
