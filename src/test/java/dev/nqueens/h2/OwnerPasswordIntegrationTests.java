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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The owner's password: a file made without one gets a generated one, kept beside it for its owner
 * alone; and a holder killed after the file took it, before it was renamed into place, left it
 * where the next holder finds it, so the file never takes a password nobody keeps.
 */
class OwnerPasswordIntegrationTests {

    @TempDir
    Path folder;

    private H2File file;

    @BeforeEach
    void aFileWithoutPassword() throws Exception {
        file = H2File.of(TestDatabases.h2Url(folder.resolve("data/nqueens"))).orElseThrow();
        Files.createDirectories(file.path().getParent());
        try (Connection db = DriverManager.getConnection(file.url(), "sa", "");
                Statement statement = db.createStatement()) {
            statement.execute("CREATE TABLE t (id INT)");
        }
    }

    @Test
    void aFileWithoutPasswordGetsAGeneratedOneKeptForItsOwnerAlone() throws Exception {
        OwnerPassword.ensure(file, "sa");

        String kept = OwnerPassword.read(file).orElseThrow();
        assertThat(kept).matches("[0-9a-f]{48}");
        assertThat(Files.getPosixFilePermissions(Path.of(file.path() + ".password")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(
                        () -> DriverManager.getConnection(file.url(), "sa", "").close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Wrong user name or password");
        DriverManager.getConnection(file.url(), "sa", kept).close();
        assertThat(Path.of(file.path() + ".password.partial")).doesNotExist();

        OwnerPassword.ensure(file, "sa");
        assertThat(OwnerPassword.read(file)).hasValue(kept);
    }

    @Test
    void aPasswordTheFileTookBeforeTheHolderWasKilledIsFoundAgain() throws Exception {
        String taken = "ab".repeat(24);
        Files.writeString(Path.of(file.path() + ".password.partial"), taken + "\n");
        try (Connection db = DriverManager.getConnection(file.url(), "sa", "");
                Statement statement = db.createStatement()) {
            statement.execute("ALTER USER sa SET PASSWORD '" + taken + "'");
        }

        OwnerPassword.ensure(file, "sa");

        assertThat(OwnerPassword.read(file)).hasValue(taken);
        DriverManager.getConnection(file.url(), "sa", taken).close();
        assertThat(Path.of(file.path() + ".password.partial")).doesNotExist();
    }
}
