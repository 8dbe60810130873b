package dev.nqueens.h2;

import dev.nqueens.failure.Failure;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * How {@code nqueens backup} gets a copy of an embedded H2 file that a long-running command holds
 * ({@code serve}, {@code schedule}, {@code db-server}): the holder listens on a Unix domain socket
 * beside the file ({@code data/nqueens.<pid>.backup.sock}, named in its {@link HolderMarker}) and
 * takes the backup itself, on a connection of its own, with H2's {@code BACKUP TO} (see
 * {@link H2Backup}). One request per connection, one line each way: {@code BACKUP <path>} and
 * {@code OK} or {@code ERROR <why>}; requests are served one at a time.
 *
 * <p>Why a socket and not H2's TCP server: that would take the owner's login (by default {@code sa}
 * without a password) over a port any local account can reach. Here the holder times the backup
 * itself, and only the file's owner can connect: the socket is readable and writable by its owner
 * alone, like the database file it stands for. During a night, {@code serve} takes the backup on its
 * connection to the night's JVM ({@link SwitchingH2DataSource#readingThroughNight}).
 */
public final class BackupChannel implements AutoCloseable {

    private static final String SUFFIX = ".backup.sock";
    /** What a Unix domain socket's path may hold on Linux (108 bytes with the terminating zero). */
    private static final int MAX_SOCKET_PATH = 100;
    private static final String OK = "OK";
    private static final String ERROR = "ERROR ";
    private static final String BACKUP = "BACKUP ";

    /** The holder's part: writes a backup of the file it holds to a zip file. */
    @FunctionalInterface
    public interface Taker {
        void backupTo(Path zip) throws SQLException, IOException;
    }

    /** The holder refused or failed the backup; the message says why, in one line. */
    public static final class RefusedException extends IOException {
        RefusedException(String message) {
            super(message);
        }
    }

    private final Path socket;
    private final ServerSocketChannel server;
    private final Thread listener;
    /** A client whose request is being read: closed with the channel, so that a silent one holds nothing up. */
    private volatile SocketChannel reading;

    private BackupChannel(Path socket, ServerSocketChannel server, Taker taker) {
        this.socket = socket;
        this.server = server;
        this.listener = new Thread(() -> serve(taker), "nqueens-backup");
        listener.setDaemon(true);
        listener.start();
    }

    /**
     * Listens for backup requests for {@code file}, taking each with {@code taker}, until closed.
     * Sockets left by holders that died are removed first.
     *
     * @throws IOException if the socket cannot be created
     */
    public static BackupChannel open(H2File file, Taker taker) throws IOException {
        removeStaleSockets(file);
        Path socket = socketPath(file);
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(socket));
            ownerOnly(socket);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return new BackupChannel(socket, server, taker);
    }

    /**
     * {@link #open}, or empty after a line on {@code err} if the socket cannot be created (a folder
     * this process may not write): the holder then works on, without taking backups.
     */
    public static Optional<BackupChannel> openOrWarn(H2File file, Taker taker, PrintStream err) {
        try {
            return Optional.of(open(file, taker));
        } catch (IOException | RuntimeException e) {
            err.println("nqueens: backups through this process are off: cannot listen for them beside "
                    + file.dataFile() + " (" + Failure.rootMessage(e) + ")");
            return Optional.empty();
        }
    }

    /** Beside the file; in a private temporary folder if that path is too long for a socket. */
    private static Path socketPath(H2File file) throws IOException {
        Path beside = Path.of(file.path() + "." + ProcessHandle.current().pid() + SUFFIX);
        if (beside.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_PATH) {
            return beside;
        }
        Path folder = Files.createTempDirectory("nqueens-");
        folder.toFile().deleteOnExit();
        return folder.resolve(file.databaseName() + SUFFIX);
    }

    private static void ownerOnly(Path socket) throws IOException {
        try {
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its own access rules apply
        }
    }

    private static void removeStaleSockets(H2File file) {
        String prefix = file.databaseName() + ".";
        try (DirectoryStream<Path> sockets = Files.newDirectoryStream(file.path().getParent(),
                prefix + "*" + SUFFIX)) {
            for (Path candidate : sockets) {
                String pid = candidate.getFileName().toString().substring(prefix.length()).replace(SUFFIX, "");
                if (pid.matches("\\d{1,18}") && ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive)
                        .isEmpty()) {
                    Files.deleteIfExists(candidate);
                }
            }
        } catch (IOException e) {
            // a stale socket is only clutter
        }
    }

    /** Where clients connect. */
    public Path socket() {
        return socket;
    }

    private void serve(Taker taker) {
        while (server.isOpen()) {
            try (SocketChannel client = server.accept()) {
                reading = client;
                String request = readLine(client);
                reading = null;
                client.write(StandardCharsets.UTF_8.encode(answer(request, taker) + "\n"));
            } catch (IOException e) {
                // closed, or the client went away: its backup command reports it
            }
        }
    }

    private static String answer(String request, Taker taker) {
        if (request == null || !request.startsWith(BACKUP)) {
            return ERROR + "not a backup request";
        }
        try {
            taker.backupTo(Path.of(request.substring(BACKUP.length())));
            return OK;
        } catch (SQLException | IOException | RuntimeException e) {
            return ERROR + Failure.rootMessage(e);
        }
    }

    /** Stops listening and removes the socket; a backup under way is finished first. */
    @Override
    public void close() {
        try {
            server.close();
            SocketChannel silent = reading;
            if (silent != null) {
                silent.close();
            }
            listener.join(Duration.ofMinutes(10).toMillis());
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            // a stale socket is removed by the next holder
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Asks the holder listening on {@code socket} for a backup into {@code zip} (an absolute path)
     * and waits until it is written.
     *
     * @throws RefusedException if the holder took no backup, with its reason
     * @throws IOException if the holder cannot be reached or hung up
     */
    public static void request(Path socket, Path zip) throws IOException {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            channel.write(StandardCharsets.UTF_8.encode(BACKUP + zip.toAbsolutePath() + "\n"));
            String answer = readLine(channel);
            if (answer == null) {
                throw new RefusedException("the holder hung up before the backup was written");
            }
            if (!answer.equals(OK)) {
                throw new RefusedException(answer.startsWith(ERROR) ? answer.substring(ERROR.length()) : answer);
            }
        }
    }

    /** One line of UTF-8, without its end; null at the end of the stream. */
    private static String readLine(SocketChannel channel) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        while (channel.read(one.clear()) > 0) {
            if (one.get(0) == '\n') {
                return line.toString(StandardCharsets.UTF_8);
            }
            line.write(one.get(0));
            if (line.size() > 8192) {
                throw new IOException("request too long");
            }
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
    }
}
