package dev.nqueens.h2;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.MVStoreTool;
import org.h2.mvstore.Page;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * Rewrites a closed embedded H2 file with only its live data, as H2's {@code SHUTDOWN COMPACT}
 * does, without its two hazards. H2 keeps old versions of pages until their space can be reused,
 * so a file that took many writes is several times its data (a fresh store of n = 14 with every
 * solution: 29 times); H2's in-place compaction on close is off ({@code MAX_COMPACT_TIME=0}) because
 * it can drop the newest chunks (H2 issues 4086 and 4247). Still needed with a generation's own
 * tables: a size kept at a lower level or replaced leaves its old tables' space behind (in
 * {@code StorageLevelsIntegrationTests} a downgrade leaves 7.8 MB that compacts to 0.3 MB), and
 * {@code H2FileSizeFunctionalTests} holds the file to twice its compacted size after each run.
 *
 * <p>How, and why it cannot lose data:
 * <ol>
 * <li>a fingerprint of the database is taken through a read-only connection: its schema as H2
 * scripts it, and the row count of every table;</li>
 * <li>the file is opened read-only at the storage level, which takes a shared lock that it keeps
 * to the end: no process can write the file meanwhile (one that tries is refused, as while a run
 * holds it), readers can;</li>
 * <li>every map of the file (tables, indexes, large objects) is copied into a fresh file,
 * compressed, with H2's own {@link MVStoreTool#compact(MVStore, MVStore)} (the copy
 * {@code SHUTDOWN COMPACT} makes; not the in-place compaction of the H2 issues);</li>
 * <li>the copy is read back page by page from the disk: each of its maps must hold, counted in its
 * leaf pages, as many entries as the original's; opened as a database it must give the same
 * fingerprint;</li>
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
            return String.format("%s to %s in %.1f s", megabytes(before), megabytes(after), took.toMillis() / 1000.0);
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
        return String.format("%.1f MB", bytes / 1e6);
    }

    /**
     * Compacts the file if less than {@value #LIVE_SHARE_KEPT} of it is live data as H2 counts it
     * (the rest: old versions of pages, tables dropped), or, when its URL does not have H2 compress
     * what it writes ({@code COMPRESS=TRUE}, as the default URL does), if a run grew it by more than a
     * tenth since it was opened (it then holds the pages the run wrote uncompressed, about twice
     * what {@code SHUTDOWN COMPACT} makes of them); files under {@value #SMALL_FILE} bytes never. A
     * run that computed nothing (a night with every size published) grows it by some kilobytes.
     *
     * @param sizeWhenOpened the file's size when the run opened it
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
            boolean grownUncompressed = !compresses() && size > sizeWhenOpened + sizeWhenOpened / 10;
            if (live.isEmpty() || !grownUncompressed && live.getAsDouble() >= LIVE_SHARE_KEPT) {
                return Optional.empty();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + data + ": " + e.getMessage(), e);
        }
        return compact();
    }

    /** Whether the URL has H2 compress the pages it writes. */
    private boolean compresses() {
        return file.settings().toUpperCase(java.util.Locale.ROOT).replace(" ", "").contains(";COMPRESS=TRUE");
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
            // Probed first: reading the fingerprint while this process holds the file would fail otherwise.
            Optional<MVStore> probe = openReadOnly();
            if (probe.isEmpty()) {
                return Optional.empty();
            }
            probe.get().close();
            Optional<String> original = fingerprint(file.readOnlyUrl() + ";IFEXISTS=TRUE");
            Optional<MVStore> locked = original.isPresent() ? openReadOnly() : Optional.empty();
            if (locked.isEmpty()) {
                return Optional.empty();
            }
            MVStore source = locked.get();
            try {
                try (MVStore target = new MVStore.Builder().fileName(copy.toString()).compress().open()) {
                    MVStoreTool.compact(source, target);
                }
                requireSameEntries(source, copy);
                Optional<String> copied = fingerprint(file.url(copyBase) + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE");
                if (!original.equals(copied)) {
                    throw new CopyMismatchException("the compacted copy of " + data + " does not read back as the"
                            + " original (schema, rows or row contents differ); the original is kept");
                }
                force(copy);
                Files.move(copy, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                force(data.getParent());
            } finally {
                source.close();
            }
            return Optional.of(new Result(before, Files.size(data), Duration.ofNanos(System.nanoTime() - started)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compact " + data + ": " + e.getMessage(), e);
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

    /**
     * Every map of the original (tables, indexes, large objects, the schema) has as many entries in
     * the copy, counted in the copy's leaf pages as read back from the disk: a page that cannot be
     * read, or a subtree that is missing, fails.
     */
    private static void requireSameEntries(MVStore source, Path copy) {
        try (MVStore copied = new MVStore.Builder().fileName(copy.toString()).readOnly().open()) {
            Set<String> names = source.getMapNames();
            if (!names.equals(copied.getMapNames())) {
                throw new CopyMismatchException("the compacted copy does not have the original's maps; the original"
                        + " is kept");
            }
            for (String name : names) {
                // Opened already, by the compaction, with H2's generic types: a builder without types returns it.
                long original = source.openMap(name, new MVMap.Builder<Object, Object>()).sizeAsLong();
                long inCopy = entriesInLeaves(copied.openMap(name, RawBytes.builder()).getRootPage());
                if (original != inCopy) {
                    throw new CopyMismatchException("map " + name + " has " + original + " entries, its compacted copy "
                            + inCopy + "; the original is kept");
                }
            }
        }
    }

    private static long entriesInLeaves(Page<Object, Object> page) {
        if (page.isLeaf()) {
            return page.getKeyCount();
        }
        long entries = 0;
        for (int i = 0; i < page.getRawChildPageCount(); i++) {
            entries += entriesInLeaves(page.getChildPage(i));
        }
        return entries;
    }

    /** The database's fingerprint: its schema as H2 scripts it, and every table's row count. */
    private Optional<String> fingerprint(String url) {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (ResultSet schema = statement.executeQuery("SCRIPT NODATA NOSETTINGS")) {
                while (schema.next()) {
                    digest.update(schema.getString(1).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            for (String query : rowCountQueries(statement)) {
                try (ResultSet rows = statement.executeQuery(query)) {
                    rows.next();
                    digest.update((query + "=" + rows.getLong(1)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            return Optional.of(HexFormat.of().formatHex(digest.digest()));
        } catch (SQLException e) {
            if (e.getErrorCode() == org.h2.api.ErrorCode.DATABASE_ALREADY_OPEN_1
                    || String.valueOf(e.getMessage()).contains("The file is locked")) {
                return Optional.empty();
            }
            throw new IllegalStateException("cannot read " + url.replaceAll(";.*$", "") + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Per table of the schema: {@code SELECT COUNT(*)}. */
    private static List<String> rowCountQueries(Statement statement) throws SQLException {
        List<String> queries = new ArrayList<>();
        try (ResultSet tables = statement.executeQuery("""
                SELECT table_schema, table_name FROM information_schema.tables
                WHERE table_type = 'BASE TABLE' AND UPPER(table_schema) = 'PUBLIC'
                ORDER BY table_name""")) {
            while (tables.next()) {
                queries.add("SELECT COUNT(*) FROM " + quote(tables.getString(1)) + "." + quote(tables.getString(2)));
            }
        }
        return queries;
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

    /** Keys and values as the bytes stored, as the compaction copies them: enough to count a map's entries. */
    private static final class RawBytes extends BasicDataType<byte[]> {

        private static final RawBytes INSTANCE = new RawBytes();

        @SuppressWarnings({"rawtypes", "unchecked"})
        static MVMap.Builder<Object, Object> builder() {
            return (MVMap.Builder) new MVMap.Builder<byte[], byte[]>().keyType(INSTANCE).valueType(INSTANCE);
        }

        @Override
        public boolean isMemoryEstimationAllowed() {
            return false;
        }

        @Override
        public int getMemory(byte[] obj) {
            return obj == null ? 0 : obj.length * 8;
        }

        @Override
        public byte[][] createStorage(int size) {
            return new byte[size][];
        }

        @Override
        public void write(WriteBuffer buff, byte[] obj) {
            if (obj != null) {
                buff.put(obj);
            }
        }

        @Override
        public byte[] read(ByteBuffer buff) {
            byte[] data = new byte[buff.remaining()];
            buff.get(data);
            return data.length == 0 ? null : data;
        }
    }
}
