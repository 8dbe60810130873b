package dev.nqueens.cli;

import dev.nqueens.failure.BusyException;
import dev.nqueens.failure.DiskFull;
import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.Failure;
import dev.nqueens.h2.H2File;
import dev.nqueens.h2.HeldFile;
import dev.nqueens.store.Database;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.boot.context.config.ConfigDataException;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.core.NestedExceptionUtils;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Turns whatever ended a command into its exit code and one line on stderr, in one place. The
 * product's own failures carry their exit code ({@link Failure}); the few failures of the libraries
 * below that have no type of the product's are recognised here by their type or their driver's
 * error code, never by their wording: a locked or missing H2 file, another database error, an
 * unreadable configuration file, a web port in use.
 */
final class Failures {

    /** How a command ended: its exit code and the line that says why. */
    record Outcome(int exitCode, String line) {}

    private Failures() {}

    /**
     * @param database the database the command used, if it got that far (its URL is named, and an
     *     H2 file's holder)
     */
    static Outcome of(Throwable failure, Optional<Database> database) {
        Failure product = cause(failure, Failure.class);
        if (product != null) {
            return new Outcome(product.exitCode(), product.getMessage());
        }
        Optional<Path> h2DataFile = database.flatMap(Database::h2File).map(H2File::dataFile);
        if (DiskFull.isCause(failure)
                || cause(failure, SQLException.class) != null
                        && h2DataFile.filter(DiskFull::full).isPresent()) {
            return new Outcome(ExitCode.FAILED, DiskFull.describe(failure, h2DataFile));
        }
        PortInUseException port = cause(failure, PortInUseException.class);
        if (port != null) {
            return new Outcome(
                    ExitCode.USAGE,
                    "port " + port.getPort() + " is in use by another program; choose"
                            + " another with --port or server.port");
        }
        if (cause(failure, YAMLException.class) != null || cause(failure, ConfigDataException.class) != null) {
            return new Outcome(
                    ExitCode.USAGE,
                    "cannot read the configuration: " + oneLine(NestedExceptionUtils.getMostSpecificCause(failure)));
        }
        SQLException sql = cause(failure, SQLException.class);
        String url = database.map(Database::shownUrl).orElse("the database");
        if (sql != null && H2File.heldElsewhere(sql)) {
            String holder = database.flatMap(Database::h2File)
                    .flatMap(HeldFile::holder)
                    .map(HeldFile.Holder::describe)
                    .orElse("another process (another nqueens run?)");
            return new Outcome(ExitCode.BUSY, BusyException.inUse(url, holder).getMessage());
        }
        if (sql != null
                && H2File.wrongLogin(sql)
                && database.flatMap(Database::h2File).isPresent()) {
            return new Outcome(
                    ExitCode.UNAVAILABLE,
                    "cannot log in to " + url + " as its owner: the password kept in "
                            + database.flatMap(Database::h2File).orElseThrow().passwordFile()
                            + " (or spring.datasource.password)"
                            + " is not the database's; put back the file the database came with (a backup holds it; docs/h2.md)");
        }
        if (sql != null && H2File.missing(sql)) {
            return new Outcome(
                    ExitCode.UNAVAILABLE,
                    "the database " + url + " does not exist yet: `./nqueens run`" + " creates it");
        }
        if (sql != null) {
            return new Outcome(
                    ExitCode.UNAVAILABLE, "cannot use the database " + url + ": " + Failure.rootMessage(failure));
        }
        return new Outcome(ExitCode.FAILED, Failure.rootMessage(failure));
    }

    /** A multi-line parser message as one line: its lines joined, the caret lines dropped. */
    private static String oneLine(Throwable failure) {
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return message.lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.equals("^"))
                .collect(Collectors.joining(" "));
    }

    private static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
        return Failure.causes(failure)
                .filter(type::isInstance)
                .map(type::cast)
                .findFirst()
                .orElse(null);
    }
}
