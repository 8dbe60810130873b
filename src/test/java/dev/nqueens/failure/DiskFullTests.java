package dev.nqueens.failure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.dao.DataAccessResourceFailureException;

/** A full disk is found among a failure's causes, and said in one line naming what to free. */
class DiskFullTests {

    @Test
    void theServersOwnWordsWinWhereverTheyAreInTheChain() {
        Throwable failure = new DataAccessResourceFailureException(
                "could not write",
                new SQLException(
                        "ERROR: could not extend file \"base/1/2\": No space left on device\n  Hint: free some",
                        DiskFull.POSTGRES_DISK_FULL));

        assertThat(DiskFull.isCause(failure)).isTrue();
        assertThat(DiskFull.describe(failure, Optional.of(Path.of("data/nqueens.mv.db"))))
                .isEqualTo(
                        "the database server is out of disk space (ERROR: could not extend file \"base/1/2\": No space left"
                                + " on device); once space is freed the next run resumes");
    }

    @Test
    void aPlaceAmongTheCausesIsNamedBeforeTheH2File() {
        class ExportFailed extends RuntimeException implements DiskFull.Place {
            ExportFailed(Throwable cause) {
                super("export failed", cause);
            }

            @Override
            public String place() {
                return "the export folder /srv/out";
            }
        }
        Throwable full = new UncheckedIOException(new IOException("/srv/out/a.csv: No space left on device"));

        assertThat(DiskFull.isCause(new IllegalStateException(new ExportFailed(full))))
                .isTrue();
        assertThat(DiskFull.describe(
                        new IllegalStateException(new ExportFailed(full)), Optional.of(Path.of("data/nqueens.mv.db"))))
                .isEqualTo("no space left on the device of the export folder /srv/out; once space is freed the next"
                        + " run resumes");
        assertThat(DiskFull.describe(full, Optional.of(Path.of("data/nqueens.mv.db"))))
                .startsWith("no space left on the device of the H2 file data/nqueens.mv.db;");
        assertThat(DiskFull.describe(full, Optional.empty()))
                .startsWith("no space left on the device of the database;");
    }

    @Test
    void otherFailuresAreNoFullDisk() {
        assertThat(DiskFull.isCause(new IllegalStateException(new IOException("Connection reset"))))
                .isFalse();
        assertThat(DiskFull.isCause(new SQLException("duplicate key", "23505"))).isFalse();
        assertThat(DiskFull.serverSays(new IOException((String) null))).isEmpty();
    }

    @Test
    void aFolderWithRoomIsNotFullNorIsAFileNotYetMadeInIt(@TempDir Path folder) {
        assertThat(DiskFull.full(folder)).isFalse();
        assertThat(DiskFull.full(folder.resolve("data/nqueens.mv.db"))).isFalse();
    }
}
