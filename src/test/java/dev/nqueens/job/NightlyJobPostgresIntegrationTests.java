package dev.nqueens.job;

import dev.nqueens.TestDatabases;
import java.nio.file.Path;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The end-to-end job checks on a real PostgreSQL server (skipped, and saying so, without one). */
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

    @Override
    Path outputFolder() {
        return work.resolve("output");
    }
}
