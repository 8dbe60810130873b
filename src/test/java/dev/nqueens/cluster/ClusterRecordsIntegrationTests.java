package dev.nqueens.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.TestDatabases;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A worker's heartbeat on the shared PostgreSQL database, with the project's schema: it renews
 * the leases of the partitions the worker is running and no other (a lease it holds on a
 * partition it does not run, claimed as the broker went away, must lapse so that the manager
 * sends that partition again).
 */
@EnabledIfEnvironmentVariable(
        named = TestDatabases.POSTGRES_URL_VARIABLE,
        matches = ".+",
        disabledReason = TestDatabases.POSTGRES_SKIPPED)
class ClusterRecordsIntegrationTests {

    private static JdbcTemplate jdbc;
    private static ClusterRecords records;

    @BeforeAll
    static void theSchemaOnADatabaseOfItsOwn() {
        Map<String, String> postgres = TestDatabases.postgresEnvironment("nqueens_cluster_records_it");
        DriverManagerDataSource dataSource = new DriverManagerDataSource(
                postgres.get("SPRING_DATASOURCE_URL"),
                postgres.get("SPRING_DATASOURCE_USERNAME"),
                postgres.get("SPRING_DATASOURCE_PASSWORD"));
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        jdbc = new JdbcTemplate(dataSource);
        records = new ClusterRecords(jdbc);
    }

    @Test
    void theHeartbeatRenewsTheLeasesOfThePartitionsRunningAndNoOther() {
        lease(101, "db7:4242");
        lease(102, "db7:4242");
        lease(103, "db8:977");

        records.heartbeat("db7:4242", Duration.ofMinutes(1), List.of(101L, 103L));

        assertThat(secondsLeft(101)).as("running here: renewed").isGreaterThan(50);
        assertThat(secondsLeft(102))
                .as("held but not running here: left to lapse")
                .isLessThan(10);
        assertThat(secondsLeft(103)).as("another worker's").isLessThan(10);

        records.heartbeat("db7:4242", Duration.ofMinutes(1), List.of());
        assertThat(secondsLeft(102)).isLessThan(10);
    }

    /** A lease claimed a moment ago that expires in five seconds. */
    private static void lease(long stepExecutionId, String workerId) {
        jdbc.update("""
                INSERT INTO partition_lease (step_execution_id, job_execution_id, partition_name, worker_id, claimed_at,
                    expires_at)
                VALUES (?, 1, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP + INTERVAL '5 seconds')
                """, stepExecutionId, "countPart:n17-p" + stepExecutionId, workerId);
    }

    private static double secondsLeft(long stepExecutionId) {
        return jdbc.queryForObject(
                "SELECT EXTRACT(EPOCH FROM (expires_at - CURRENT_TIMESTAMP)) FROM partition_lease"
                        + " WHERE step_execution_id = ?",
                Double.class,
                stepExecutionId);
    }
}
