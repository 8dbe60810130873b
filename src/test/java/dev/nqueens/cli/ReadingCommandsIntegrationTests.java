package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.InProcess;
import dev.nqueens.NqueensProcess;
import dev.nqueens.TestResources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reading commands are read-only by their login, not by a statement's text: with nothing
 * holding the H2 file, H2's file and script functions are refused and the database and password
 * files stay byte for byte as they were; bad input (an unusable password file, a statement too
 * deep for the parser) gets one line naming what is wrong and the exit code of its kind.
 */
@ResourceLock(TestResources.TEST_JVM)
class ReadingCommandsIntegrationTests {

    @TempDir
    Path work;

    private Path database;
    private Path password;

    @BeforeEach
    void storeSomeSizes() {
        NqueensProcess.Result run = InProcess.run(work, "run", "--sizes", "1-6");
        assertThat(run.exitCode()).as(run.err()).isZero();
        database = work.resolve("data/nqueens.mv.db");
        password = work.resolve("data/nqueens.password");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "SELECT FILE_WRITE(CAST('x' AS VARBINARY), 'data/nqueens.password')",
                "SELECT FILE_WRITE(X'00', 'data/nqueens.mv.db')",
                "SELECT FILE_READ('/etc/hostname')",
                "SELECT * FROM CSVREAD('/etc/passwd')",
                "SELECT CSVWRITE('data/out.csv', 'SELECT 1')",
                "SELECT * FROM LINK_SCHEMA('x', '', 'jdbc:h2:mem:x;INIT=RUNSCRIPT FROM ''data/x.sql''', 'sa', '', 'PUBLIC')"
            })
    void fileAndScriptFunctionsAreRefusedAndNothingChanges(String statement) throws Exception {
        String databaseBefore = sha256(database);
        String passwordBefore = sha256(password);
        List<String> filesBefore = files();

        NqueensProcess.Result result = InProcess.run(work, "sql", statement);

        assertThat(result.exitCode()).as(result.out()).isEqualTo(2);
        assertThat(result.err().lines()).hasSize(1);
        assertThat(sha256(database)).isEqualTo(databaseBefore);
        assertThat(sha256(password)).isEqualTo(passwordBefore);
        assertThat(files()).isEqualTo(filesBefore);
        assertThat(InProcess.run(work, "sql", "SELECT COUNT(*) FROM board_summary")
                        .exitCode())
                .isZero();
    }

    @Test
    void aStatementTooDeepForTheParserIsOneLineOfBadInput() {
        String deep = "SELECT " + "(".repeat(20_000) + "1" + ")".repeat(20_000);
        NqueensProcess.Result result = InProcess.run(work, "sql", deep);
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err().lines()).hasSize(1);
    }

    @Test
    void aPasswordFileOthersCanReadIsRefusedSayingHowToMakeItPrivate() throws Exception {
        Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-r--r--"));
        for (String[] command : new String[][] {{"sql", "SELECT 1"}, {"run", "--sizes", "1-6"}}) {
            NqueensProcess.Result result = InProcess.run(work, command);
            assertThat(result.exitCode()).isEqualTo(2);
            assertThat(result.err().lines()).hasSize(1);
            assertThat(result.err()).contains("chmod 600").contains(password.toString());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"a folder", "empty", "garbage", "another password", "missing"})
    void anUnusablePasswordFileIsNamedInOneLine(String damage) throws Exception {
        Files.delete(password);
        switch (damage) {
            case "a folder" -> Files.createDirectory(password);
            case "empty" -> Files.writeString(password, "");
            case "garbage" -> Files.writeString(password, "not a password\n");
            case "another password" -> Files.writeString(password, "0".repeat(48) + "\n");
            default -> {}
        }
        if (Files.isRegularFile(password)) {
            Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
        }
        for (String[] command : new String[][] {{"sql", "SELECT 1"}, {"run", "--sizes", "1-6"}}) {
            NqueensProcess.Result result = InProcess.run(work, command);
            assertThat(result.exitCode()).as(String.join(" ", command)).isEqualTo(4);
            assertThat(result.err().lines()).hasSize(1);
            assertThat(result.err()).contains(password.toString());
        }
    }

    private List<String> files() throws Exception {
        try (var listed = Files.walk(work)) {
            return listed.map(Path::toString).sorted().toList();
        }
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
