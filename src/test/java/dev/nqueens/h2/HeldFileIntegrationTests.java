package dev.nqueens.h2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nqueens.TestDatabases;
import dev.nqueens.failure.BusyException;
import dev.nqueens.failure.ExitCode;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The holder marker names a live holder, not a process that has its pid since; a command that
 * writes is refused while a live holder's marker names the file, and a reading command reads
 * through the holder's server with the read-only login.
 */
class HeldFileIntegrationTests {

    @TempDir
    Path folder;

    private H2File file;
    private Path marker;

    @BeforeEach
    void aFile() throws Exception {
        Files.createDirectories(folder.resolve("data"));
        file = H2File.of(TestDatabases.h2Url(folder.resolve("data/nqueens"))).orElseThrow();
        marker = Path.of(file.path() + ".holder");
    }

    @Test
    void aLiveHolderIsNamedAWriterRefusedAndAReaderSentThroughIt() throws Exception {
        long pid = ProcessHandle.current().pid();
        String named = "`nqueens schedule` (pid " + pid + "), which runs the nightly job itself"
                + " on its schedule '0 2 * * *': stop it for a run from the shell";
        HeldFile.mark(file, "schedule", 41234, named);
        assertThat(HeldFile.holder(file)).hasValueSatisfying(holder -> {
            assertThat(holder.pid()).isEqualTo(pid);
            assertThat(holder.command()).isEqualTo("schedule");
        });

        Files.createFile(file.dataFile());
        Database database = database();
        for (Runnable writer : List.<Runnable>of(database::writing, database::migrating)) {
            assertThatThrownBy(writer::run)
                    .isInstanceOf(BusyException.class)
                    // The file and the holder in its marker's words; "one run at a time" as docs/h2.md quotes it.
                    .hasMessageContainingAll(database.shownUrl(), named, "one run at a time")
                    .satisfies(e -> assertThat(((BusyException) e).exitCode()).isEqualTo(ExitCode.BUSY));
        }

        assertThat(database.reading())
                .as("the reading commands' own login, not db-server's clients'")
                .isEqualTo(new Database.Access(
                        "jdbc:h2:tcp://127.0.0.1:41234/nqueens;IFEXISTS=TRUE",
                        ReadingLogin.USER,
                        ReadingLogin.password("")));
        assertThat(database.readingAsOwner().url()).as("backup's own reading").startsWith(file.readOnlyUrl());
    }

    @Test
    void aPidThatAnotherProcessHasSinceIsNotTheHolder() throws Exception {
        HeldFile.mark(file, "schedule", 41234, "`nqueens schedule`");
        String written = Files.readString(marker);
        assertThat(written)
                .contains("started="
                        + HeldFile.startTicks(ProcessHandle.current().pid()).orElseThrow());

        Files.writeString(marker, written.replaceAll("started=.*", "started=1"));
        assertThat(HeldFile.holder(file)).as("same pid, another start").isEmpty();
        Files.createFile(file.dataFile());
        assertThat(database().writing().url()).startsWith(file.url());

        Files.writeString(marker, written.replaceAll("started=.*\\n", ""));
        assertThat(HeldFile.holder(file))
                .as("a marker of a build before: the pid alone")
                .isPresent();
    }

    private Database database() {
        return new Database(
                file.url(),
                "sa",
                "",
                new NqueensProperties.DbServer(5435, 9092, "r", "r"),
                new NqueensProperties.Reading("", ""));
    }
}
