package dev.nqueens.h2;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * A small file beside an embedded H2 file ({@code data/nqueens.holder}) saying which long-running
 * command holds it: {@code serve} (its address and schedule), {@code schedule} (its schedule) or
 * {@code db-server} (its TCP port and read-only login), and where it takes backups
 * ({@link BackupChannel}). H2's lock only tells another process that the file is in use; with this,
 * a refused {@code run} names the holder, the reading commands read through {@code db-server}
 * instead of being refused, and {@code backup} asks the holder for a backup. A marker whose process
 * is gone (or whose pid another process has since) is ignored.
 */
public final class HolderMarker {

    private static final String SERVE = "serve";
    private static final String DB_SERVER = "db-server";
    private static final String SCHEDULE = "schedule";
    private static final String BACKUP_SOCKET = "backup-socket";
    /**
     * When the holder's process started, in clock ticks after the boot ({@link #startTicks}): a pid the
     * system gave to another process since is not it.
     */
    private static final String STARTED = "started";

    private final Path file;
    private final Optional<BackupChannel> backups;

    private HolderMarker(Path file, Optional<BackupChannel> backups) {
        this.file = file;
        this.backups = backups;
    }

    /** A live holder of the file, as its marker describes it. */
    public record Holder(String command, long pid, Properties values) {

        /** {@code db-server}'s H2 TCP port, if this holder is one: reading commands connect through it. */
        public Optional<Integer> tcpPort() {
            return DB_SERVER.equals(command) ? Optional.of(Integer.parseInt(values.getProperty("tcp-port")))
                    : Optional.empty();
        }

        /** Where this holder takes backups of the file, if it says. */
        public Optional<Path> backupSocket() {
            String socket = values.getProperty(BACKUP_SOCKET);
            return socket == null || socket.isBlank() ? Optional.empty() : Optional.of(Path.of(socket));
        }

        /** "`nqueens serve` (pid 12)": the command and its process. */
        public String name() {
            return "`nqueens " + command + "` (pid " + pid + ")";
        }

        /**
         * "`nqueens serve` (pid 12, http://…), which runs the nightly job itself on its schedule '0 2 * * *'",
         * "`nqueens schedule` (pid 12), which runs the nightly job itself on its schedule '0 2 * * *'",
         * or "`nqueens db-server` (pid 12, serving it on 127.0.0.1 ports 5435 and 9092)".
         */
        public String describe() {
            if (SCHEDULE.equals(command)) {
                return name() + ", which runs the nightly job itself on its schedule '" + values.getProperty("schedule")
                        + "': stop it for a run from the shell";
            }
            if (DB_SERVER.equals(command)) {
                return "`nqueens db-server` (pid " + pid + ", serving it on 127.0.0.1 ports "
                        + values.getProperty("pg-port") + " and " + values.getProperty("tcp-port") + "): stop it first";
            }
            String schedule = values.getProperty("schedule");
            return "`nqueens serve` (pid " + pid + ", " + values.getProperty("address") + "), "
                    + (schedule == null ? "whose nightly schedule is off (nqueens.schedule.enabled=false): stop it"
                            + " for a run from the shell, or turn its schedule on"
                            : "which runs the nightly job itself on its schedule '" + schedule + "'");
        }
    }

    static Path of(H2File database) {
        return Path.of(database.path() + ".holder");
    }

    /**
     * Marks the file as held by {@code serve} at {@code address}, running the job on {@code cron} if
     * present, taking backups through {@code backups}.
     */
    public static HolderMarker serve(H2File database, String address, Optional<String> cron,
            Optional<BackupChannel> backups) {
        Properties values = new Properties();
        values.setProperty("address", address);
        cron.ifPresent(schedule -> values.setProperty("schedule", schedule));
        return write(database, SERVE, values, backups);
    }

    /** Marks the file as held by {@code schedule}, running the job on {@code cron}, taking backups through {@code backups}. */
    public static HolderMarker schedule(H2File database, String cron, Optional<BackupChannel> backups) {
        Properties values = new Properties();
        values.setProperty("schedule", cron);
        return write(database, SCHEDULE, values, backups);
    }

    /** Marks the file as held by {@code db-server} on these ports, taking backups through {@code backups}. */
    public static HolderMarker dbServer(H2File database, int pgPort, int tcpPort,
            Optional<BackupChannel> backups) {
        Properties values = new Properties();
        values.setProperty("pg-port", Integer.toString(pgPort));
        values.setProperty("tcp-port", Integer.toString(tcpPort));
        return write(database, DB_SERVER, values, backups);
    }

    /** Writes the marker (replacing a stale one); a folder that cannot be written only loses the message. */
    private static HolderMarker write(H2File database, String command, Properties values,
            Optional<BackupChannel> backups) {
        Path target = of(database);
        backups.ifPresent(channel -> values.setProperty(BACKUP_SOCKET, channel.socket().toString()));
        values.setProperty("command", command);
        values.setProperty("pid", String.valueOf(ProcessHandle.current().pid()));
        startTicks(ProcessHandle.current().pid()).ifPresent(started -> values.setProperty(STARTED, started));
        try {
            StringWriter text = new StringWriter();
            values.store(text, "nqueens " + command + " holds this database");
            WholeFile.write(target, text.toString());
        } catch (IOException e) {
            // Only the wording of a refused run, and backups through the holder, depend on it.
        }
        return new HolderMarker(target, backups);
    }

    /** Removes the marker and closes the backup channel (after a backup under way): the file is no longer held. */
    public void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A stale marker is ignored: its process is gone.
        }
        backups.ifPresent(BackupChannel::close);
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
            return Optional.of(new Holder(values.getProperty("command", SERVE), pid, values));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
