package dev.nqueens.h2;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.h2.api.ErrorCode;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;

/**
 * Rewrites a closed embedded H2 file with only its live data, as H2's {@code SHUTDOWN COMPACT}
 * does, without its hazard. H2 keeps old versions of pages until their space can be reused, so a
 * file that took many writes is several times its data, and a size kept at a lower level or
 * replaced leaves its old tables' space behind: in {@code StorageLevelsIntegrationTests} a
 * downgrade leaves 7.8 MB that compacts to 0.3 MB, and {@code H2FileSizeFunctionalTests} holds the
 * file to twice its compacted size. H2's compaction of the file in place (on close, when
 * {@code MAX_COMPACT_TIME} allows it) can drop the newest chunks (H2 issues 4086 and 4247), so it
 * is off, and the file is compacted as a copy:
 * <ol>
 * <li>a fingerprint of the database is taken through a read-only connection: its schema as H2
 * scripts it, and the row count of every table;</li>
 * <li>the file is opened read-only at the storage level, which takes a shared lock that it keeps
 * to the end: no process can write the file meanwhile (one that tries is refused, as while a run
 * holds it);</li>
 * <li>the file is copied beside it and the copy compacted by {@code SHUTDOWN COMPACT}, which
 * writes a fresh file of its live pages;</li>
 * <li>the compacted copy must give the same fingerprint;</li>
 * <li>only then does it replace the original in one atomic rename, still under the lock.</li>
 * </ol>
 * If anything fails, or another process holds the file, the original stays as it was. A copy left
 * by a killed compaction ({@code nqueens.compacting.mv.db}) is deleted by the next one.
 */
public final class H2Compaction {

    /** What a compaction did: the file's size before and after, and how long it took. */
    public record Result(long before, long after, Duration took) {

        /** {@code 412.3 MB to 30.1 MB in 4.2 s}. */
        public String describe() {
            return String.format(Locale.ROOT, "%s to %s in %.1f s", megabytes(before), megabytes(after),
                    took.toMillis() / 1000.0);
        }
    }

    /** A compaction that found the copy unlike the original: the original is kept. */
    public static final class CopyMismatchException extends RuntimeException {
        CopyMismatchException(String message) {
            super(message);
        }
    }

    /** A file whose live data is at least this share of it is not compacted: at most 1.67 times its data. */
    static final double LIVE_SHARE_KEPT = 0.6;

    /** Files smaller than this are left as they are: their overhead costs little. */
    static final long SMALL_FILE = 4L << 20;

    private final H2File file;
    private final String user;
    private final String password;

    public H2Compaction(H2File file, String user, String password) {
        this.file = file;
        this.user = user;
        this.password = password;
    }

    /** {@code 30.1 MB}. */
    public static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    /**
     * Compacts the file if less than {@value #LIVE_SHARE_KEPT} of it is live data as H2 counts it
     * (the rest: old versions of pages, tables dropped), or, when its URL does not have H2 compress
     * what it writes ({@code COMPRESS=TRUE}, as the default URL does), if it grew by more than a
     * tenth since it was opened (it then holds pages written uncompressed, about twice what
     * {@code SHUTDOWN COMPACT} makes of them); files under {@value #SMALL_FILE} bytes never.
     *
     * @param sizeWhenOpened the file's size when its holder opened it
     * @return what was done; empty if nothing was, or another process holds the file
     * @throws CopyMismatchException if the copy did not hold what the original does (it is deleted)
     * @throws UncheckedIOException if the file cannot be read, or the copy written or renamed
     */
    public Optional<Result> compactIfWorthwhile(long sizeWhenOpened) {
        Path data = file.dataFile();
        try {
            long size = Files.exists(data) ? Files.size(data) : 0;
            if (size < SMALL_FILE) {
                return Optional.empty();
            }
            OptionalDouble live = liveShare();
            boolean grownUncompressed = !file.settings().toUpperCase(Locale.ROOT).replace(" ", "")
                    .contains(";COMPRESS=TRUE") && size > sizeWhenOpened + sizeWhenOpened / 10;
            if (live.isEmpty() || !grownUncompressed && live.getAsDouble() >= LIVE_SHARE_KEPT) {
                return Optional.empty();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + data + ": " + e.getMessage(), e);
        }
        return compact();
    }

    /**
     * The share of the file that live pages take, as H2 counts them (used blocks times the live
     * share of the chunks in them); empty if another process or this one holds the file.
     */
    private OptionalDouble liveShare() {
        Optional<MVStore> store = openReadOnly();
        if (store.isEmpty()) {
            return OptionalDouble.empty();
        }
        try (MVStore opened = store.get()) {
            return OptionalDouble.of(opened.getFillRate() / 100.0 * opened.getFileStore().getChunksFillRate() / 100.0);
        }
    }

    /** The file opened read-only at the storage level, with a shared lock; empty if someone holds it for writing. */
    private Optional<MVStore> openReadOnly() {
        try {
            return Optional.of(new MVStore.Builder().fileName(file.dataFile().toString()).readOnly().open());
        } catch (MVStoreException e) {
            if (e.getErrorCode() == DataUtils.ERROR_FILE_LOCKED) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Compacts the file, which nothing in this process may hold open.
     *
     * @return what was done; empty if another process holds the file (nothing changed)
     * @throws CopyMismatchException if the copy did not hold what the original does (it is deleted)
     * @throws UncheckedIOException if the file cannot be read, or the copy written or renamed
     */
    public Optional<Result> compact() {
        long started = System.nanoTime();
        Path data = file.dataFile();
        Path copyBase = Path.of(file.path() + ".compacting");
        Path copy = Path.of(copyBase + ".mv.db");
        try {
            deleteCopy(copyBase);
            long before = Files.size(data);
            // The fingerprint first: this process could not open the file while it holds the lock.
            Optional<String> original = fingerprint(file.readOnlyUrl() + ";IFEXISTS=TRUE");
            Optional<MVStore> locked = original.isPresent() ? openReadOnly() : Optional.empty();
            if (locked.isEmpty()) {
                return Optional.empty();
            }
            try (MVStore lock = locked.get()) {
                Files.copy(data, copy);
                try (Connection connection = DriverManager.getConnection(file.url(copyBase) + ";IFEXISTS=TRUE", user,
                        password); Statement statement = connection.createStatement()) {
                    statement.execute("SHUTDOWN COMPACT");
                }
                if (!original.equals(fingerprint(file.url(copyBase) + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE"))) {
                    throw new CopyMismatchException("the compacted copy of " + data + " does not read back as the"
                            + " original (schema or rows differ); the original is kept");
                }
                force(copy);
                Files.move(copy, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                force(data.getParent());
            }
            return Optional.of(new Result(before, Files.size(data), Duration.ofNanos(System.nanoTime() - started)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compact " + data + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot compact " + data + ": " + e.getMessage(), e);
        } finally {
            try {
                deleteCopy(copyBase);
            } catch (IOException e) {
                // The next compaction deletes it.
            }
        }
    }

    private static void deleteCopy(Path copyBase) throws IOException {
        Files.deleteIfExists(Path.of(copyBase + ".mv.db"));
        Files.deleteIfExists(Path.of(copyBase + ".trace.db"));
    }

    /** The database's fingerprint: its schema as H2 scripts it, and every table's row count. */
    private Optional<String> fingerprint(String url) {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (ResultSet schema = statement.executeQuery("SCRIPT NODATA NOSETTINGS")) {
                while (schema.next()) {
                    digest.update(schema.getString(1).getBytes(StandardCharsets.UTF_8));
                }
            }
            List<String> tables = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SELECT table_schema, table_name FROM information_schema.tables"
                    + " WHERE table_type = 'BASE TABLE' AND UPPER(table_schema) = 'PUBLIC' ORDER BY table_name")) {
                while (rows.next()) {
                    tables.add(quote(rows.getString(1)) + "." + quote(rows.getString(2)));
                }
            }
            for (String table : tables) {
                try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    rows.next();
                    digest.update((table + "=" + rows.getLong(1)).getBytes(StandardCharsets.UTF_8));
                }
            }
            return Optional.of(HexFormat.of().formatHex(digest.digest()));
        } catch (SQLException e) {
            if (e.getErrorCode() == ErrorCode.DATABASE_ALREADY_OPEN_1
                    || String.valueOf(e.getMessage()).contains("The file is locked")) {
                return Optional.empty();
            }
            throw new IllegalStateException("cannot read " + url.replaceAll(";.*$", "") + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** Writes a file's (or a folder's entries') buffers to the disk. */
    private static void force(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, Files.isDirectory(path) ? StandardOpenOption.READ
                : StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }
}
