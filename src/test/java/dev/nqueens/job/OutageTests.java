package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** An outage is said once when it begins and once when it ends, however many uses fail in between. */
class OutageTests {

    @Test
    void saysOnceEachWayWithTheReasonAndTheTimeAway() {
        List<String> said = new ArrayList<>();
        Instant start = Instant.parse("2026-03-01T02:00:00Z");
        AtomicReference<Instant> now = new AtomicReference<>(start);
        Outage database = new Outage("the database", said::add, new Clock() {
            @Override
            public Instant instant() {
                return now.get();
            }

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                throw new UnsupportedOperationException();
            }
        });
        database.succeeded();
        assertThat(said).isEmpty();
        assertThat(database.awayFor()).isZero();

        for (int use = 0; use < 5; use++) {
            database.failed(new IllegalStateException(
                    "wrapped",
                    new SQLException(
                            "Connection to 127.0.0.1:5432 refused." + "\nCheck that the hostname and port are correct",
                            "08001")));
        }
        now.set(start.plusMillis(1250));
        assertThat(database.awayFor()).isEqualTo(Duration.ofMillis(1250));
        database.succeeded();
        database.succeeded();
        database.failed(new ConnectException());

        assertThat(said)
                .containsExactly(
                        "the database went away: Connection to 127.0.0.1:5432 refused.",
                        "the database is back after 1.25 s",
                        "the database went away: ConnectException");
        assertThat(database.episodes()).isEqualTo(2);
        assertThat(database.lastReason()).isEqualTo("ConnectException");
    }
}
