package dev.nqueens.h2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.TestDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The holder's side of a backup, in this JVM on an H2 file of its own: the channel answers a
 * request with a whole zip file or the holder's reason, only its owner can connect, it cleans up
 * after itself and after dead holders; and {@code serve}'s pool does not switch under a backup.
 */
class BackupChannelTests {

    @TempDir
    Path folder;

    private H2File file;

    @BeforeEach
    void aDatabase() throws SQLException {
        file = H2File.of(TestDatabases.h2Url(folder.resolve("data/nqueens"))).orElseThrow();
        try (Connection connection = DriverManager.getConnection(file.url(), "sa", "");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE board_summary (n INT PRIMARY KEY, total_solutions BIGINT)");
            statement.execute("INSERT INTO board_summary VALUES (8, 92), (10, 724)");
        }
    }

    @Test
    void aRequestGetsAWholeZipOfTheFileFromItsHolder() throws Exception {
        Path zip = folder.resolve("nqueens.zip");
        try (Connection held = DriverManager.getConnection(file.readOnlyUrl(), "sa", "")) {
            BackupChannel channel = BackupChannel.open(file, target -> H2Backup.take(held, target));
            try {
                assertThat(channel.socket()).isEqualTo(folder.resolve("data/nqueens." + ProcessHandle.current().pid()
                        + ".backup.sock"));
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(channel.socket())))
                        .isEqualTo("rw-------");
                BackupChannel.request(channel.socket(), zip);
            } finally {
                channel.close();
            }
            assertThat(channel.socket()).doesNotExist();
        }
        assertThat(H2Backup.contents(zip).entry()).isEqualTo("nqueens.mv.db");
        assertThat(H2Backup.contents(zip).bytes()).isEqualTo(Files.size(file.dataFile()));
        try (var files = Files.list(folder)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactlyInAnyOrder("data",
                    "nqueens.zip");
        }
    }

    @Test
    void theHoldersReasonComesBackInOneLine() throws Exception {
        try (BackupChannel channel = BackupChannel.open(file, target -> {
            throw new SQLException("Error while creating file \"/nowhere/x.zip\"\nmore details");
        })) {
            assertThatThrownBy(() -> BackupChannel.request(channel.socket(), folder.resolve("x.zip")))
                    .isInstanceOf(BackupChannel.RefusedException.class)
                    .hasMessage("Error while creating file \"/nowhere/x.zip\"");
        }
    }

    @Test
    void aSocketLeftByADeadHolderIsRemoved() throws Exception {
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Path stale = folder.resolve("data/nqueens." + dead.pid() + ".backup.sock");
        Files.createFile(stale);
        try (BackupChannel channel = BackupChannel.open(file, target -> { })) {
            assertThat(stale).doesNotExist();
            assertThat(channel.socket()).exists();
        }
    }

    /**
     * {@code serve} switches its pool to writable for a night: a backup under way holds the switch
     * off (otherwise the switch would abort the backup's connection), and the night then writes.
     */
    @Test
    void aBackupHoldsOffTheSwitchOfServesPoolUntilItIsWritten() throws Exception {
        SwitchingH2DataSource pool = new SwitchingH2DataSource(file, "sa", "");
        try {
            CountDownLatch backingUp = new CountDownLatch(1);
            Path zip = folder.resolve("during.zip");
            CompletableFuture<Instant> backedUp = CompletableFuture.supplyAsync(() -> {
                try {
                    pool.whileOpen(connection -> {
                        backingUp.countDown();
                        pause(Duration.ofMillis(500));
                        H2Backup.take(connection, zip);
                    });
                    return Instant.now();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(backingUp.await(10, TimeUnit.SECONDS)).isTrue();
            Instant nightStarted = pool.writableDuring(() -> {
                Instant started = Instant.now();
                try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
                    statement.execute("INSERT INTO board_summary VALUES (9, 352)");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                return started;
            });
            assertThat(backedUp.get(10, TimeUnit.SECONDS)).isBeforeOrEqualTo(nightStarted);
            assertThat(H2Backup.contents(zip).entry()).isEqualTo("nqueens.mv.db");
        } finally {
            pool.destroy();
        }
        try (Connection connection = DriverManager.getConnection(file.readOnlyUrl(), "sa", "")) {
            assertThat(TestDatabases.count(connection, "SELECT COUNT(*) FROM board_summary")).isEqualTo(3);
        }
    }

    private static void pause(Duration time) {
        try {
            Thread.sleep(time.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
