package dev.nqueens.h2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compacting a closed H2 file: smaller, the same rows, and never while another connection holds it. */
class H2CompactionIntegrationTests {

    @TempDir
    Path folder;

    H2File file;

    @BeforeEach
    void bloatedFile() throws SQLException {
        file = H2File.of("jdbc:h2:file:" + folder.resolve("nqueens")
                        + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;MAX_COMPACT_TIME=0")
                .orElseThrow();
        try (Connection db = DriverManager.getConnection(file.url(), "sa", "");
                Statement statement = db.createStatement()) {
            statement.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR(300) NOT NULL)");
            statement.execute("CREATE INDEX t_v ON t (v)");
            try (PreparedStatement insert = db.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                for (int id = 0; id < 20_000; id++) {
                    insert.setInt(1, id);
                    insert.setString(2, id + " " + "x".repeat(200));
                    insert.addBatch();
                    if (id % 1000 == 999) {
                        insert.executeBatch();
                    }
                }
            }
            // Every row rewritten twice, in small transactions: old page versions fill the file.
            for (int round = 0; round < 2; round++) {
                for (int from = 0; from < 20_000; from += 500) {
                    statement.execute("UPDATE t SET v = v || 'y' WHERE id >= " + from + " AND id < " + (from + 500));
                }
            }
        }
    }

    private H2Compaction compaction() {
        return new H2Compaction(file, "sa", "");
    }

    @Test
    void aFileTheRunGrewIsRewrittenSmallerWithTheSameRows() throws Exception {
        long before = Files.size(file.dataFile());
        String rows = rows();

        Optional<H2Compaction.Result> result = compaction().compactIfWorthwhile(0);

        assertThat(result).isPresent();
        assertThat(result.get().before()).isEqualTo(before);
        assertThat(result.get().after()).isEqualTo(Files.size(file.dataFile())).isLessThan(before / 2);
        assertThat(rows()).isEqualTo(rows).startsWith("20000 ");
        try (var listing = Files.list(folder)) {
            assertThat(listing.map(path -> path.getFileName().toString())).containsExactly("nqueens.mv.db");
        }
    }

    @Test
    void aCompactFileThatDidNotGrowIsLeftAsItIs() throws Exception {
        compaction().compactIfWorthwhile(0).orElseThrow();
        long compacted = Files.size(file.dataFile());
        long modified = Files.getLastModifiedTime(file.dataFile()).toMillis();

        assertThat(compaction().compactIfWorthwhile(compacted)).isEmpty();
        assertThat(Files.getLastModifiedTime(file.dataFile()).toMillis()).isEqualTo(modified);
    }

    @Test
    void aFileHeldOpenIsLeftAsItIs() throws Exception {
        String rows = rows();
        try (Connection held = DriverManager.getConnection(file.url(), "sa", "")) {
            assertThat(compaction().compactIfWorthwhile(0)).isEmpty();
            assertThat(compaction().compact()).isEmpty();
            try (var listing = Files.list(folder)) {
                assertThat(listing.map(path -> path.getFileName().toString())).containsExactly("nqueens.mv.db");
            }
        }
        assertThat(rows()).isEqualTo(rows);
    }

    @Test
    void theCopyAKilledCompactionLeftIsDeletedByTheNext() throws Exception {
        Path leftover = folder.resolve("nqueens.compacting.mv.db");
        Files.writeString(leftover, "half a copy");

        compaction().compact().orElseThrow();

        assertThat(leftover).doesNotExist();
        assertThat(rows()).startsWith("20000 ");
    }

    /** Rows, their contents, and a look-up through the index. */
    private String rows() throws SQLException {
        try (Connection db = DriverManager.getConnection(file.readOnlyUrl(), "sa", "");
                Statement statement = db.createStatement();
                ResultSet result = statement.executeQuery("SELECT COUNT(*), SUM(id), SUM(LENGTH(v)),"
                        + " (SELECT id FROM t WHERE v = '12345 ' || REPEAT('x', 200) || 'yy') FROM t")) {
            result.next();
            return result.getLong(1) + " " + result.getLong(2) + " " + result.getLong(3) + " " + result.getLong(4);
        }
    }
}
