package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.nqueens.TestResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The run lock on the embedded H2 file, migrated by the product's own migrations: held in a row
 * with its epoch and heartbeat, refused while held in this process, taken over at once from a
 * holder that is not (the file admits one process), and a holder that lost it writes nothing more.
 * (The heartbeat-watching of PostgreSQL is in NightlyJobPostgresIntegrationTests.)
 */
@Order(3) // in-process: first from the front, while the launcher makes its archive (see the pom)
@ResourceLock(TestResources.TEST_JVM)
class RunLockIntegrationTests {

    /** Short, so the tests see several heartbeats in a fraction of a second. */
    private static final Duration HEARTBEAT = Duration.ofMillis(20);

    private static final Duration LIVENESS = Duration.ofMillis(200);

    private DataSource dataSource;
    private JdbcTemplate jdbc;

    @BeforeEach
    void migratedDatabase() {
        String url =
                "jdbc:h2:mem:runlock" + System.nanoTime() + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1";
        dataSource = new DriverManagerDataSource(url, "sa", "");
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        jdbc = new JdbcTemplate(dataSource);
    }

    @Test
    void aRunHoldsTheLockInTheDataWithItsEpochAndHeartbeatAndReleasesIt() {
        RunLock lock = new RunLock(dataSource, HEARTBEAT, LIVENESS);
        try (RunLock.Held held = lock.acquire(line -> {})) {
            assertThat(held.epoch()).isEqualTo(1);
            assertThat(jdbc.queryForObject("SELECT holder FROM run_lock", String.class))
                    .isEqualTo(ThisProcess.id());
            Object before = jdbc.queryForObject("SELECT heartbeat_at FROM run_lock", Object.class);
            await().untilAsserted(
                            () -> assertThat(jdbc.queryForObject("SELECT heartbeat_at FROM run_lock", Object.class))
                                    .as("it beats")
                                    .isNotEqualTo(before));
            new TransactionTemplate(new DataSourceTransactionManager(dataSource))
                    .executeWithoutResult(status -> lock.checkHeld());

            assertThatThrownBy(() -> new RunLock(dataSource, HEARTBEAT, LIVENESS).acquire(line -> {}))
                    .isInstanceOf(RunInProgressException.class)
                    .hasMessageContaining(ThisProcess.id());
        }
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM run_lock WHERE holder IS NULL AND epoch = 1", Long.class))
                .isEqualTo(1);
    }

    @Test
    @Timeout(60) // a run that watched the holder would wait for the liveness of a day
    void onTheEmbeddedFileAHolderOutsideThisProcessIsDeadAndTheLockIsTakenOverAtOnce() {
        jdbc.update("UPDATE run_lock SET holder = 'killed:99', epoch = 7, heartbeat_at = CURRENT_TIMESTAMP");
        List<String> said = new ArrayList<>();
        try (RunLock.Held held = new RunLock(dataSource, HEARTBEAT, Duration.ofDays(1)).acquire(said::add)) {
            assertThat(held.epoch()).isEqualTo(8);
            assertThat(jdbc.queryForObject("SELECT holder FROM run_lock", String.class))
                    .isEqualTo(ThisProcess.id());
        }
        assertThat(said)
                .as("no watching, so no takeover from a silent holder to tell")
                .isEmpty();
    }

    @Test
    void aHolderWhoseLockWasTakenOverIsToldAtItsNextWriteAndAtItsHeartbeatAndLeavesTheOtherHolderAlone() {
        RunLock lock = new RunLock(dataSource, HEARTBEAT, LIVENESS);
        try (RunLock.Held held = lock.acquire(line -> {})) {
            jdbc.update("UPDATE run_lock SET holder = 'db9:4242', epoch = epoch + 1");
            assertThatThrownBy(lock::checkHeld)
                    .isInstanceOf(RunLockLostException.class)
                    // the wording docs/cluster.md quotes: the new holder and its epoch
                    .hasMessageStartingWith("the run lock was taken over by db9:4242 (epoch 2)");
            assertThat(held.lost()).isTrue();
        }
        assertThat(jdbc.queryForObject("SELECT holder FROM run_lock", String.class))
                .isEqualTo("db9:4242");

        try (RunLock.Held held = new RunLock(dataSource, HEARTBEAT, LIVENESS).acquire(line -> {})) {
            jdbc.update("UPDATE run_lock SET holder = 'db9:4243', epoch = epoch + 1");
            await().untilAsserted(() ->
                    assertThat(held.lost()).as("seen at the heartbeat").isTrue());
        }
        assertThat(jdbc.queryForObject("SELECT holder FROM run_lock", String.class))
                .isEqualTo("db9:4243");
    }

    @Test
    void aHeartbeatNoLongerThanTheLivenessIsRefused() {
        assertThatThrownBy(() -> new RunLock(dataSource, LIVENESS, LIVENESS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("heartbeat", "liveness", "PT0.2S");
    }
}
