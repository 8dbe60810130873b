package dev.nqueens.job;

import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import java.nio.file.Path;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The end-to-end job checks on the embedded default: an H2 file in PostgreSQL mode. */
@Order(1) // in-process: first from the front, while the launcher makes its archive (see the pom)
@ResourceLock(TestResources.TEST_JVM)
class NightlyJobIntegrationTests extends AbstractNightlyJobIntegrationTests {

    @TempDir
    static Path work;

    @DynamicPropertySource
    static void freshDatabase(DynamicPropertyRegistry registry) {
        TestDatabases.useH2(registry, work);
        registry.add("nqueens.output-dir", () -> work.resolve("output").toString());
    }

    @Override
    Path outputFolder() {
        return work.resolve("output");
    }
}
