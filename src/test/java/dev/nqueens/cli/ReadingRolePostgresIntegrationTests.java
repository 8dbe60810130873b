package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.InProcess;
import dev.nqueens.NqueensProcess;
import dev.nqueens.TestDatabases;
import dev.nqueens.TestResources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * docs/sql.md's read-only role on PostgreSQL, made as the page says (its statements read from the
 * page), then used by the reading commands through {@code nqueens.reading.*}: they read, and no
 * statement of theirs writes, draws a sequence value or reads the server's files.
 */
@ResourceLock(TestResources.TEST_JVM)
@EnabledIfEnvironmentVariable(
        named = TestDatabases.POSTGRES_URL_VARIABLE,
        matches = ".+",
        disabledReason = TestDatabases.POSTGRES_SKIPPED)
class ReadingRolePostgresIntegrationTests {

    private static final String DATABASE = "nqueens_reading_role_it";

    @TempDir
    Path work;

    @Test
    void theReadOnlyRoleOfTheDocsReadsAndNothingElse() throws Exception {
        Map<String, String> job = TestDatabases.postgresEnvironment(DATABASE);
        NqueensProcess.Result run = InProcess.run(work, job, "run", "--sizes", "1-8");
        assertThat(run.exitCode()).as(run.err()).isZero();

        String role =
                "analyst_" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        try (Connection owner = DriverManager.getConnection(job.get("SPRING_DATASOURCE_URL"), "postgres", "postgres");
                Statement statement = owner.createStatement()) {
            for (String line : recipe().split(";")) {
                if (!line.isBlank()) {
                    statement.execute(line.replace("analyst", role)
                            .replace("DATABASE nqueens", "DATABASE " + DATABASE)
                            .replace("FOR ROLE nqueens", "FOR ROLE postgres"));
                }
            }
        }
        Map<String, String> reading = new HashMap<>(job);
        reading.put("NQUEENS_READING_USERNAME", role);
        reading.put("NQUEENS_READING_PASSWORD", "choose-one");

        NqueensProcess.Result read = InProcess.run(
                work,
                reading,
                "sql",
                "SELECT CURRENT_USER AS who, total_solutions" + " FROM board_summary WHERE n = 8",
                "--format",
                "csv");
        assertThat(read.out()).isEqualTo("who,total_solutions\n" + role + ",92\n");
        assertThat(InProcess.run(work, reading, "verify").exitCode()).isZero();
        for (String statement : new String[] {
            "SELECT nextval('batch_job_seq')",
            "SELECT pg_read_file('PG_VERSION')",
            "SELECT * FROM pg_stat_file('postgresql.conf')"
        }) {
            NqueensProcess.Result refused = InProcess.run(work, reading, "sql", statement);
            assertThat(refused.exitCode()).as(statement).isEqualTo(2);
            assertThat(refused.err().lines()).hasSize(1);
        }
    }

    /** The role's statements as docs/sql.md gives them: the first block after its heading. */
    private static String recipe() throws Exception {
        String page = Files.readString(Path.of("docs/sql.md"));
        String section = page.substring(page.indexOf("### A read-only role on PostgreSQL"));
        int start = section.indexOf("```\n") + 4;
        return section.substring(start, section.indexOf("```", start));
    }
}
