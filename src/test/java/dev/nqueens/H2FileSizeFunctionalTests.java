package dev.nqueens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The embedded H2 file stays proportional to its data: after storing sizes 1 to 13 (every solution
 * up to 12, the classes of 13) and after raising 13 to every solution, the file is at most twice
 * what H2's {@code SHUTDOWN COMPACT} makes of a copy of it, the raised size replaced its old
 * generation without leaving anything behind, and {@code verify} passes. Runs in this JVM.
 */
@ResourceLock(TestResources.TEST_JVM)
class H2FileSizeFunctionalTests {

    @TempDir
    static Path work;

    @TempDir
    static Path copies;

    /** One scenario, in its steps: the raise starts from what the first run stored. */
    @Test
    void storingOneToThirteenThenRaisingThirteenLeavesTheFileAtMostTwiceItsCompactedSize() throws Exception {
        NqueensProcess.Result stored = InProcess.run(work, "run", "--sizes", "1-13", "--store-all-up-to", "12");

        assertThat(stored.exitCode()).as(stored.out() + stored.err()).isZero();
        assertAtMostTwiceItsCompactedSize("after storing 1-13");
        assertVerifies();

        NqueensProcess.Result raised = InProcess.run(work, "run", "--sizes", "13", "--store-all-up-to", "13");

        assertThat(raised.exitCode()).as(raised.out() + raised.err()).isZero();
        assertThat(raised.out()).containsPattern("(?m)^ +13 +73,712 +9,233 +ALL ");
        assertAtMostTwiceItsCompactedSize("after raising 13");
        assertVerifies();
        try (Connection db = TestDatabases.openH2(database())) {
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM solution WHERE n = 13"))
                    .isEqualTo(73_712);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM stored_generation WHERE n = 13"))
                    .as("the generation of 13 stored as classes only is gone")
                    .isEqualTo(1);
            assertThat(TestDatabases.count(db, "SELECT COUNT(*) FROM building_generation"))
                    .isZero();
        }
    }

    private static Path database() {
        return work.resolve("data/nqueens");
    }

    /** The file against a copy of it that H2's SHUTDOWN COMPACT rewrote. */
    private static void assertAtMostTwiceItsCompactedSize(String when) throws IOException, SQLException {
        Path file = Path.of(database() + ".mv.db");
        Path copy = Files.createTempDirectory(copies, "compacted").resolve("nqueens");
        Files.copy(file, Path.of(copy + ".mv.db"));
        try (Connection db = DriverManager.getConnection(
                        TestDatabases.h2Url(copy), "sa", TestDatabases.ownerPassword(database()));
                Statement statement = db.createStatement()) {
            statement.execute("SHUTDOWN COMPACT");
        }
        long size = Files.size(file);
        long compacted = Files.size(Path.of(copy + ".mv.db"));
        assertThat(size)
                .as("%s: the file has %,d bytes, SHUTDOWN COMPACT makes %,d of it", when, size, compacted)
                .isLessThanOrEqualTo(2 * compacted);
    }

    private static void assertVerifies() {
        NqueensProcess.Result verify = InProcess.run(work, "verify");
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).containsPattern("verify: all \\d+ checks passed");
    }
}
