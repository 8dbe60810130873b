package dev.nqueens.h2;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * A small file beside an embedded H2 file ({@code data/nqueens.holder}) saying which command holds
 * it ({@code run}, {@code schedule}, {@code serve} or {@code db-server}) and the port of the H2 TCP
 * server through which it serves the file on 127.0.0.1 ({@link HeldFile}). H2's lock only tells
 * another process that the file is in use; with this, a refused {@code run} names the holder, and
 * the reading commands and {@code backup} connect through the holder's server. A marker whose
 * process is gone (or whose pid another process has since) is ignored.
 */
public final class HolderMarker {

    private static final String TCP_PORT = "tcp-port";
    /**
     * When the holder's process started, in clock ticks after the boot ({@link #startTicks}): a pid the
     * system gave to another process since is not it.
     */
    private static final String STARTED = "started";

    private final Path file;

    private HolderMarker(Path file) {
        this.file = file;
    }

    /** A live holder of the file, as its marker describes it. */
    public record Holder(String command, long pid, Properties values) {

        /** The URL of the file through this holder's H2 TCP server. */
        public String url(H2File file) {
            return "jdbc:h2:tcp://127.0.0.1:" + values.getProperty(TCP_PORT) + "/" + file.databaseName()
                    + ";IFEXISTS=TRUE";
        }

        /** "`nqueens serve` (pid 12)": the command and its process. */
        public String name() {
            return "`nqueens " + command + "` (pid " + pid + ")";
        }

        /**
         * "`nqueens run` (pid 12)",
         * "`nqueens serve` (pid 12, http://…), which runs the nightly job itself on its schedule '0 2 * * *'",
         * "`nqueens schedule` (pid 12), which runs the nightly job itself on its schedule '0 2 * * *'",
         * or "`nqueens db-server` (pid 12, serving it on 127.0.0.1 ports 5435 and 9092)".
         */
        public String describe() {
            String schedule = values.getProperty("schedule");
            return switch (command) {
                case "schedule" -> name() + ", which runs the nightly job itself on its schedule '" + schedule
                        + "': stop it for a run from the shell";
                case "db-server" -> "`nqueens db-server` (pid " + pid + ", serving it on 127.0.0.1 ports "
                        + values.getProperty("pg-port") + " and " + values.getProperty(TCP_PORT) + "): stop it first";
                case "serve" -> "`nqueens serve` (pid " + pid + ", " + values.getProperty("address") + "), "
                        + (schedule == null ? "whose nightly schedule is off (nqueens.schedule.enabled=false): stop"
                                + " it for a run from the shell, or turn its schedule on"
                                : "which runs the nightly job itself on its schedule '" + schedule + "'");
                default -> name();
            };
        }
    }

    static Path of(H2File database) {
        return Path.of(database.path() + ".holder");
    }

    /**
     * Marks the file as held by {@code command}, served on {@code tcpPort}, with what describes it
     * ({@code address}, {@code schedule}, {@code pg-port}). A stale marker is replaced; a folder that
     * cannot be written only loses the marker: a refused run then names no holder, and the reading
     * commands find the file locked.
     */
    static HolderMarker write(H2File database, String command, int tcpPort, Map<String, String> describing) {
        Path target = of(database);
        Properties values = new Properties();
        values.putAll(describing);
        values.setProperty(TCP_PORT, Integer.toString(tcpPort));
        values.setProperty("command", command);
        values.setProperty("pid", String.valueOf(ProcessHandle.current().pid()));
        startTicks(ProcessHandle.current().pid()).ifPresent(started -> values.setProperty(STARTED, started));
        try {
            StringWriter text = new StringWriter();
            values.store(text, "nqueens " + command + " holds this database");
            // Whole or not at all: written beside it and renamed into place.
            Path partial = target.resolveSibling("." + target.getFileName() + ".partial");
            Files.writeString(partial, text.toString());
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // see above
        }
        return new HolderMarker(target);
    }

    /** Removes the marker: the file is no longer held. */
    void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A stale marker is ignored: its process is gone.
        }
    }

    /**
     * When process {@code pid} started, in clock ticks after the boot (Linux: field 22 of
     * {@code /proc/PID/stat}); unlike {@link ProcessHandle.Info#startInstant()}, which adds the boot's
     * wall-clock time as each JVM reads it, a step of the clock does not move it. Empty where
     * {@code /proc} does not tell.
     */
    static Optional<String> startTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // After the command name in parentheses (which may hold spaces): field 3 (state) onwards.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(fields[19]);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The live process that holds {@code database}, if a marker names one. */
    public static Optional<Holder> liveHolder(H2File database) {
        Path marker = of(database);
        if (!Files.isRegularFile(marker)) {
            return Optional.empty();
        }
        Properties values = new Properties();
        try {
            values.load(new StringReader(Files.readString(marker)));
            long pid = Long.parseLong(values.getProperty("pid", "-1"));
            String started = values.getProperty(STARTED);
            if (ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(process -> started == null
                    || startTicks(pid).orElse(started).equals(started)).isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Holder(values.getProperty("command", "serve"), pid, values));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
