package dev.nqueens.h2;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Optional;
import org.h2.tools.Server;

/**
 * While a night started by {@code serve} holds the file in a JVM of its own, {@code serve} reads
 * through it: H2's TCP server on the loopback interface (the night's JVM is started with
 * {@value DatabaseServer#BIND_ADDRESS}{@code =127.0.0.1}), on a free port, serving the file under a
 * random name only {@code serve} learns (H2's {@code -key}: any other name is refused), so another
 * local account cannot reach the database with the owner's login. The URL is written to a file
 * {@code serve} named (readable by its owner only), whole or not at all.
 */
final class NightReads implements AutoCloseable {

    /**
     * How long the night waits for serve to stop reading through it: a backup serve takes through it
     * ends first (during a night they took 8-90 s).
     */
    static final long RELEASE_SECONDS = 600;

    private final Server server;
    private final Path published;
    private final Optional<ProcessHandle> serve;

    private NightReads(Server server, Path published, Optional<ProcessHandle> serve) {
        this.server = server;
        this.published = published;
        this.serve = serve;
    }

    /** Starts serving {@code file} and writes the URL to read it through to {@code published}, for {@code serve}. */
    static NightReads serve(H2File file, Path published, Optional<ProcessHandle> serve) {
        byte[] name = new byte[16];
        new SecureRandom().nextBytes(name);
        String key = HexFormat.of().formatHex(name);
        Server server;
        try {
            server = Server.createTcpServer("-tcpPort", "0", "-baseDir", file.path().getParent().toString(),
                    "-ifExists", "-key", key, file.databaseName()).start();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot serve the database to serve during the night: " + e.getMessage(), e);
        }
        try {
            WholeFile.write(published, "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/" + key + ";IFEXISTS=TRUE");
        } catch (IOException e) {
            server.stop();
            throw new UncheckedIOException("cannot tell serve where to read during the night: " + e.getMessage(), e);
        }
        return new NightReads(server, published, serve);
    }

    /**
     * Stops serving, so that the file can be closed after the run: first asks {@code serve} to stop
     * reading through it (the file {@code ending} beside the URL's) and waits, up to
     * {@value #RELEASE_SECONDS} s, until it has ({@code released}) or is gone: its requests then wait for the
     * file instead of failing on a closed session.
     */
    @Override
    public void close() {
        Path ending = published.resolveSibling(published.getFileName() + ".ending");
        Path released = published.resolveSibling(published.getFileName() + ".released");
        try {
            Files.writeString(ending, "");
            long deadline = System.nanoTime() + RELEASE_SECONDS * 1_000_000_000L;
            while (!Files.exists(released) && serve.filter(ProcessHandle::isAlive).isPresent() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } catch (IOException e) {
            // serve's folder of the night is gone: serve is
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.stop();
        try {
            Files.deleteIfExists(published);
        } catch (IOException e) {
            // serve deletes its folder of the night when the night's JVM has ended
        }
    }
}
