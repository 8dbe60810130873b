package dev.nqueens.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.TestDatabases;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The end-to-end job checks on a real PostgreSQL server (skipped, and saying so, without one),
 * plus the run lock that only PostgreSQL needs: a session advisory lock.
 */
@EnabledIfEnvironmentVariable(named = TestDatabases.POSTGRES_URL_VARIABLE, matches = ".+",
        disabledReason = TestDatabases.POSTGRES_SKIPPED)
class NightlyJobPostgresIntegrationTests extends AbstractNightlyJobIntegrationTests {

    @TempDir
    static Path work;

    @DynamicPropertySource
    static void freshDatabase(DynamicPropertyRegistry registry) {
        if (TestDatabases.postgresAvailable()) {
            TestDatabases.usePostgres(registry, "nqueens_job_it");
        }
        registry.add("nqueens.output-dir", () -> work.resolve("output").toString());
    }

    @Autowired
    DataSource dataSource;

    @Override
    Path outputFolder() {
        return work.resolve("output");
    }

    @Test
    @Order(9)
    void aRunIsRefusedWhileAnotherSessionHoldsTheRunLock() throws Exception {
        try (Connection holder = dataSource.getConnection()) {
            try (PreparedStatement lock = holder.prepareStatement("SELECT pg_advisory_lock(?)")) {
                lock.setLong(1, RunLock.ADVISORY_KEY);
                lock.execute();
            }
            long executions = jdbc.queryForObject("SELECT COUNT(*) FROM batch_job_execution", Long.class);
            assertThatThrownBy(() -> run("1-4")).isInstanceOf(RunInProgressException.class)
                    .hasMessage("another nqueens run is using this database; one run at a time");
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM batch_job_execution", Long.class))
                    .isEqualTo(executions);
            try (PreparedStatement unlock = holder.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                unlock.setLong(1, RunLock.ADVISORY_KEY);
                unlock.execute();
            }
        }
        assertThat(run("1-4").completed()).as("free again once the other session let go").isTrue();
    }
}
