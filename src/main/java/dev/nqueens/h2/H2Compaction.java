package dev.nqueens.h2;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;

/**
 * Rewrites a closed embedded H2 file with only its live data, as H2's {@code SHUTDOWN COMPACT}
 * does, without its hazard. H2 keeps old versions of pages until their space can be reused, so a
 * file that took many writes is several times its data, and a size kept at a lower level or
 * replaced leaves its old tables' space behind ({@code StorageLevelsIntegrationTests}: a downgrade
 * leaves a file many times what it compacts to; {@code H2FileSizeFunctionalTests} holds the file
 * to twice its compacted size). H2's compaction in place (on close, with {@code MAX_COMPACT_TIME}) can drop
 * the newest chunks (H2 issues 4086 and 4247), so it is off, and the file is compacted as a copy:
 * with a fingerprint of the database taken (its schema as H2 scripts it, every table's row count),
 * the file is locked shared at the storage level (no process can write it meanwhile), copied, the
 * copy compacted by {@code SHUTDOWN COMPACT}, and, if it gives the same fingerprint, renamed over
 * the original, still under the lock. If anything fails, or another process holds the file, the
 * original stays as it was; a copy a killed compaction left ({@code nqueens.compacting.mv.db}) is
 * deleted by the next one.
 */
public final class H2Compaction {

    /** What a compaction did: the file's size before and after, and how long it took. */
    public record Result(long before, long after, Duration took) {

        /** {@code 412.3 MB to 30.1 MB in 4.2 s}. */
        public String describe() {
            return String.format(
                    Locale.ROOT, "%.1f MB to %.1f MB in %.1f s", before / 1e6, after / 1e6, took.toMillis() / 1000.0);
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

    /**
     * {@link #compact}s the file if less than {@value #LIVE_SHARE_KEPT} of it is live data as H2
     * counts it (used blocks times the live share of their chunks), or, when its URL does not have
     * H2 compress what it writes ({@code COMPRESS=TRUE}, as the default URL does), if it grew by
     * more than a tenth since it was opened (pages written uncompressed: about twice what
     * {@code SHUTDOWN COMPACT} makes of them); files under {@value #SMALL_FILE} bytes never.
     *
     * @param sizeWhenOpened the file's size when its holder opened it
     */
    public Optional<Result> compactIfWorthwhile(long sizeWhenOpened) {
        long size = file.dataFile().toFile().length();
        if (size < SMALL_FILE) {
            return Optional.empty();
        }
        boolean grownUncompressed =
                !file.settings().toUpperCase(Locale.ROOT).replace(" ", "").contains(";COMPRESS=TRUE")
                        && size > sizeWhenOpened + sizeWhenOpened / 10;
        try (MVStore store = lockShared()) {
            if (store == null
                    || !grownUncompressed
                            && store.getFillRate()
                                            / 100.0
                                            * store.getFileStore().getChunksFillRate()
                                            / 100.0
                                    >= LIVE_SHARE_KEPT) {
                return Optional.empty();
            }
        }
        return compact();
    }

    /** The file opened read-only at the storage level, with a shared lock; null if a process holds it for writing. */
    private MVStore lockShared() {
        try {
            return new MVStore.Builder()
                    .fileName(file.dataFile().toString())
                    .readOnly()
                    .open();
        } catch (MVStoreException e) {
            if (e.getErrorCode() == DataUtils.ERROR_FILE_LOCKED) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Compacts the file, which nothing in this process may hold open.
     *
     * @return what was done; empty if another process holds the file (nothing changed)
     * @throws IllegalStateException if the copy does not read back as the original (it is deleted)
     * @throws UncheckedIOException if the file cannot be read, or the copy written or renamed
     */
    public Optional<Result> compact() {
        long started = System.nanoTime();
        Path data = file.dataFile();
        Path copyBase = Path.of(file.path() + ".compacting");
        Path copy = Path.of(copyBase + ".mv.db");
        try {
            Files.deleteIfExists(copy);
            long before = Files.size(data);
            // The fingerprint first: this process could not open the file while it holds the lock.
            Optional<String> original = fingerprint(file.readOnlyUrl() + ";IFEXISTS=TRUE");
            try (MVStore lock = original.isPresent() ? lockShared() : null) {
                if (lock == null) {
                    return Optional.empty();
                }
                Files.copy(data, copy);
                try (Connection connection =
                                DriverManager.getConnection(file.url(copyBase) + ";IFEXISTS=TRUE", user, password);
                        Statement statement = connection.createStatement()) {
                    statement.execute("SHUTDOWN COMPACT");
                }
                if (!original.equals(fingerprint(file.url(copyBase) + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE"))) {
                    throw new IllegalStateException("the compacted copy does not read back as the original (schema"
                            + " or rows differ); the original is kept");
                }
                H2Backup.force(copy);
                Files.move(copy, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                H2Backup.force(data.getParent());
            }
            return Optional.of(new Result(before, Files.size(data), Duration.ofNanos(System.nanoTime() - started)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compact " + data + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot compact " + data + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(copy);
                Files.deleteIfExists(Path.of(copyBase + ".trace.db"));
            } catch (IOException e) {
                // The next compaction deletes it.
            }
        }
    }

    /** The database's fingerprint: its schema as H2 scripts it, and every table's row count; empty if it is held. */
    private Optional<String> fingerprint(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            List<String> tables = new ArrayList<>();
            try (ResultSet schema = statement.executeQuery("SCRIPT NODATA NOSETTINGS")) {
                while (schema.next()) {
                    digest.update(schema.getString(1).getBytes(StandardCharsets.UTF_8));
                }
            }
            try (ResultSet rows = statement.executeQuery(
                    "SELECT table_schema, table_name FROM information_schema.tables"
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
            if (H2File.heldElsewhere(e)) {
                return Optional.empty();
            }
            throw e;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
