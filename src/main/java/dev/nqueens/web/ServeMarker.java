package dev.nqueens.web;

import dev.nqueens.store.H2File;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * A small file beside an embedded H2 file ({@code data/nqueens.serve}) saying that {@code serve}
 * holds it: its process id, address and schedule. H2's lock only tells another process that the
 * file is in use; with this, a refused {@code run} can name the holder and its schedule. A marker
 * whose process is gone is ignored.
 */
public final class ServeMarker {

    private final Path file;

    private ServeMarker(Path file) {
        this.file = file;
    }

    static Path of(H2File database) {
        return Path.of(database.path() + ".serve");
    }

    /** Writes the marker (replacing a stale one); a folder that cannot be written only loses the message. */
    static ServeMarker write(H2File database, String address, Optional<String> cron) {
        Path target = of(database);
        Properties values = new Properties();
        values.setProperty("pid", String.valueOf(ProcessHandle.current().pid()));
        values.setProperty("address", address);
        cron.ifPresent(schedule -> values.setProperty("schedule", schedule));
        try {
            Path temporary = target.resolveSibling("." + target.getFileName() + ".partial");
            try (var out = Files.newBufferedWriter(temporary)) {
                values.store(out, "nqueens serve holds this database");
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // Only the wording of a refused run depends on it.
        }
        return new ServeMarker(target);
    }

    void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A stale marker is ignored: its process is gone.
        }
    }

    /**
     * Who holds {@code database}, when it is a live {@code serve}: "`nqueens serve` (pid 12, http://…),
     * which runs the nightly job itself on its schedule '0 2 * * *'".
     */
    public static Optional<String> describeLiveHolder(H2File database) {
        Path marker = of(database);
        if (!Files.isRegularFile(marker)) {
            return Optional.empty();
        }
        Properties values = new Properties();
        try {
            values.load(new StringReader(Files.readString(marker)));
            long pid = Long.parseLong(values.getProperty("pid", "-1"));
            if (ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
                return Optional.empty();
            }
            String schedule = values.getProperty("schedule");
            return Optional.of("`nqueens serve` (pid " + pid + ", " + values.getProperty("address") + "), "
                    + (schedule == null ? "whose nightly schedule is off (nqueens.schedule.enabled=false): stop it"
                            + " for a run from the shell, or turn its schedule on"
                            : "which runs the nightly job itself on its schedule '" + schedule + "'"));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
