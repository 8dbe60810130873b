package dev.nqueens.h2;

import dev.nqueens.settings.NqueensProperties;
import java.sql.SQLException;
import java.time.Duration;
import org.h2.tools.Server;

/**
 * What {@code ./nqueens db-server} serves: the embedded H2 file, read-only, on 127.0.0.1, over the
 * PostgreSQL wire protocol (psql, GUI clients, any PostgreSQL driver) and over H2's own TCP
 * protocol (H2's JDBC driver, and nqueens' own reading commands meanwhile).
 *
 * <p>Read-only and exclusive: the file is held ({@link HeldFile}: a run refuses to start, the
 * other commands go through its TCP server), the read-only login made (with a password: psql
 * cannot send an empty one), and reopened with {@code ACCESS_MODE_DATA=r}, which every session
 * shares whatever its user. Both servers bind to 127.0.0.1 ({@value HeldFile#BIND_ADDRESS}).
 */
public final class DatabaseServer implements AutoCloseable {

    /** H2's "exception opening port" error. */
    private static final int H2_PORT_IN_USE = 90061;

    private final HeldFile held;
    private final Server pg;

    private DatabaseServer(HeldFile held, Server pg) {
        this.held = held;
        this.pg = pg;
    }

    /** A port that another program listens on. */
    public static final class PortInUseException extends RuntimeException {
        public final int port;

        PortInUseException(int port, SQLException cause) {
            super("port " + port + " is in use", cause);
            this.port = port;
        }
    }

    /**
     * Starts serving {@code file}, opened with the owner's login, on the ports of {@code settings}.
     * {@code description} names the server to a refused run ({@link HeldFile.Holder#describe}).
     *
     * @throws PortInUseException if a port is taken
     * @throws SQLException if the file cannot be opened (another process holds it: a run)
     */
    public static DatabaseServer start(
            H2File file,
            String user,
            String password,
            NqueensProperties.DbServer settings,
            String description,
            Duration statementTimeout)
            throws SQLException {
        HeldFile held;
        try {
            held = HeldFile.hold(
                    file,
                    user,
                    password,
                    settings,
                    true,
                    "db-server",
                    settings.tcpPort(),
                    description,
                    statementTimeout);
        } catch (SQLException e) {
            throw portInUse(e, settings.tcpPort());
        }
        try {
            return new DatabaseServer(
                    held,
                    Server.createPgServer(
                                    "-pgPort",
                                    String.valueOf(settings.pgPort()),
                                    "-baseDir",
                                    file.path().getParent().toString(),
                                    "-ifExists")
                            .start());
        } catch (SQLException e) {
            held.release(null);
            throw portInUse(e, settings.pgPort());
        }
    }

    private static SQLException portInUse(SQLException e, int port) {
        if (e.getErrorCode() == H2_PORT_IN_USE) {
            throw new PortInUseException(port, e);
        }
        return e;
    }

    /** Stops both servers and lets the file go. */
    @Override
    public void close() {
        pg.stop();
        held.release(null);
    }
}
