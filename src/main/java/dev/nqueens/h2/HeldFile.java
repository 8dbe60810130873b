package dev.nqueens.h2;

import dev.nqueens.failure.BusyException;
import dev.nqueens.failure.Failure;
import dev.nqueens.settings.NqueensProperties;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.h2.tools.Server;

/**
 * A process's hold on the embedded H2 file ({@code run}, {@code schedule}, {@code serve},
 * {@code db-server}): the file stays open in this process, which serves it to the others through
 * H2's TCP server on 127.0.0.1 alone (H2's {@code h2.bindAddress}, set when the JVM starts),
 * never creating a database ({@code -ifExists}). H2's lock only tells another process that the
 * file is in use; a marker beside it ({@code data/nqueens.holder}, {@link #holder}) names the
 * holder to a refused {@code run} and gives its port to the reading commands (their login,
 * {@link ReadingLogin}) and {@code backup} (the owner's, {@link OwnerPassword}). A reader never becomes the holder: it
 * has no file to take over. Let go, the file is compacted if worthwhile ({@link H2Compaction}).
 */
public final class HeldFile {

    /** The system property H2 reads once, when it loads, for the address its servers listen on. */
    public static final String BIND_ADDRESS = "h2.bindAddress";

    private static final String TCP_PORT = "tcp-port";
    private static final String DESCRIPTION = "description";
    /** When the holder's process started ({@link #startTicks}): a pid given to another process since is not it. */
    private static final String STARTED = "started";

    private final H2File file;
    private final H2Compaction compaction;
    private final Connection open;
    private final Server server;
    private final ReadingSessions readers;
    private final long sizeWhenHeld;

    private HeldFile(
            H2File file,
            H2Compaction compaction,
            Connection open,
            Server server,
            ReadingSessions readers,
            long sizeWhenHeld) {
        this.file = file;
        this.compaction = compaction;
        this.open = open;
        this.server = server;
        this.readers = readers;
        this.sizeWhenHeld = sizeWhenHeld;
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
            return BusyException.holder(command, pid, "");
        }

        /** The holder as a refused run names it, in the words it marked the file with; else its {@link #name}. */
        public String describe() {
            return values.getProperty(DESCRIPTION, name());
        }
    }

    /**
     * Holds the file and serves it, marked as held by {@code command}: opens it with the owner's
     * login, creates the reading commands' login ({@link ReadingLogin}) and, {@code readOnly}
     * ({@code db-server}), the read-only login of its clients (any other holder drops that one: its
     * password is no secret), keeps a connection open until {@link #release} (that one, or, read-only,
     * one that every session then shares), and keeps the reading sessions within {@code statementTimeout}
     * ({@link ReadingSessions}).
     *
     * @param user the owner's login, and {@code password} its password
     * @param reader the read-only login of db-server's clients
     * @param port the TCP port; 0 for a free one
     * @param description the holder as a refused run names it ({@link Holder#describe})
     * @throws SQLException if the file cannot be opened or the server cannot start (the port is taken)
     */
    public static HeldFile hold(
            H2File file,
            String user,
            String password,
            NqueensProperties.DbServer reader,
            boolean readOnly,
            String command,
            int port,
            String description,
            Duration statementTimeout)
            throws SQLException {
        long size = file.dataFile().toFile().length();
        Connection open = DriverManager.getConnection(file.url() + ";IFEXISTS=TRUE", user, password);
        ReadingSessions readers = null;
        try {
            ReadingLogin.grant(open, password);
            grantOrDropClientLogin(open, reader, readOnly);
            String url = readOnly ? file.readOnlyUrl() : file.url() + ";IFEXISTS=TRUE";
            if (readOnly) {
                open.close();
                open = DriverManager.getConnection(url, user, password);
            }
            readers = new ReadingSessions(
                            () -> connect(url, user, password),
                            Set.of(ReadingLogin.USER, reader.user()),
                            statementTimeout,
                            Clock.systemUTC())
                    .start();
            Server server = Server.createTcpServer(
                            "-tcpPort",
                            Integer.toString(port),
                            "-baseDir",
                            file.path().getParent().toString(),
                            "-ifExists")
                    .start();
            mark(file, command, server.getPort(), description);
            return new HeldFile(file, new H2Compaction(file, user, password), open, server, readers, size);
        } catch (SQLException | RuntimeException e) {
            if (readers != null) {
                readers.close();
            }
            open.close();
            throw e;
        }
    }

    private static Connection connect(String url, String user, String password) {
        try {
            return DriverManager.getConnection(url, user, password);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * The read-only login of db-server's clients: created (or its password reset) for db-server,
     * which opens the file read-only; dropped by any other holder, where a job writes.
     */
    private static void grantOrDropClientLogin(Connection owner, NqueensProperties.DbServer reader, boolean create)
            throws SQLException {
        String quoted = "'" + reader.password().replace("'", "''") + "'";
        try (Statement statement = owner.createStatement()) {
            if (!create) {
                statement.execute("DROP USER IF EXISTS " + reader.user());
                return;
            }
            statement.execute("CREATE USER IF NOT EXISTS " + reader.user() + " PASSWORD " + quoted);
            statement.execute("ALTER USER " + reader.user() + " SET PASSWORD " + quoted);
            statement.execute("GRANT SELECT ON SCHEMA public TO " + reader.user());
        }
    }

    /** Stops serving: the sessions of readers through it end. */
    public void stopServing() {
        readers.close();
        server.stop();
    }

    /**
     * Lets the file go, once this process's other connections are closed: compacts it if it grew
     * enough to be worth it (saying so on {@code out}; not when {@code out} is null) and removes the
     * marker. A compaction that fails leaves the file as it was, with one line saying so.
     */
    public void release(PrintStream out) {
        readers.close();
        server.stop();
        try {
            open.close();
        } catch (SQLException e) {
            // closed with the database
        }
        try {
            if (out != null) {
                compaction
                        .compactIfWorthwhile(sizeWhenHeld)
                        .ifPresent(result -> out.printf(
                                "  compacted %s: %s%n", file.dataFile().getFileName(), result.describe()));
            }
        } catch (RuntimeException e) {
            out.printf("nqueens: %s was not compacted: %s%n", file.dataFile().getFileName(), Failure.rootMessage(e));
        } finally {
            try {
                Files.deleteIfExists(marker(file));
            } catch (IOException e) {
                // A stale marker is ignored: its process is gone.
            }
        }
    }

    static Path marker(H2File file) {
        return Path.of(file.path() + ".holder");
    }

    /**
     * Marks the file as held by {@code command}, served on {@code tcpPort}: written beside it and
     * renamed into place. A folder that cannot be written only loses the marker: a refused run then
     * names no holder, and the reading commands find the file locked.
     */
    static void mark(H2File file, String command, int tcpPort, String description) {
        Properties values = new Properties();
        values.setProperty(DESCRIPTION, description);
        values.setProperty(TCP_PORT, Integer.toString(tcpPort));
        values.setProperty("command", command);
        values.setProperty("pid", String.valueOf(ProcessHandle.current().pid()));
        startTicks(ProcessHandle.current().pid()).ifPresent(started -> values.setProperty(STARTED, started));
        Path target = marker(file);
        try {
            StringWriter text = new StringWriter();
            values.store(text, "nqueens " + command + " holds this database");
            Path partial = target.resolveSibling("." + target.getFileName() + ".partial");
            Files.writeString(partial, text.toString());
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // see above
        }
    }

    /**
     * When process {@code pid} started, in clock ticks after the boot (field 22 of
     * {@code /proc/PID/stat}; unlike {@link ProcessHandle.Info#startInstant()}, a step of the
     * clock does not move it); empty where {@code /proc} does not tell.
     */
    static Optional<String> startTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // After the command name in parentheses (which may hold spaces): field 3 (state) onwards.
            return Optional.of(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19]);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The live process that holds {@code file}, if a marker names one (a stale marker, or a reused pid, is not one). */
    public static Optional<Holder> holder(H2File file) {
        Properties values = new Properties();
        try {
            values.load(new StringReader(Files.readString(marker(file))));
            long pid = Long.parseLong(values.getProperty("pid", "-1"));
            String started = values.getProperty(STARTED);
            if (ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(process ->
                            started == null || startTicks(pid).orElse(started).equals(started))
                    .isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Holder(values.getProperty("command", "serve"), pid, values));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
