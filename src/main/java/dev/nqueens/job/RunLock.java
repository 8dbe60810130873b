package dev.nqueens.job;

import dev.nqueens.store.Dialect;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One run at a time per database, held in the data: the row of {@code run_lock} names its holder
 * ({@code host:pid}), an epoch that grows by one with each holder, and the holder's heartbeat,
 * renewed by a thread of the holder (every {@link #HEARTBEAT} in the product). Unlike a session
 * lock it survives a restart or a failover of the database server.
 *
 * <p>A run takes the row when it is free. When it is held, the run watches the heartbeat for the
 * liveness timeout ({@link #LIVENESS} in the product): if it moves, the holder is alive and the run
 * is refused (exit 3); if not, the holder is dead and the run takes the row over with the next
 * epoch. On the embedded H2 file no other process can be holding it (the file admits one process),
 * so a holder that is not in this process is dead at once. Every write that matters checks, in its
 * own transaction ({@link #checkHeld}; on PostgreSQL with a key-share lock on the row, so a
 * takeover, which locks it for update, waits for the writes in flight, while the heartbeat does
 * not), that the epoch is still the holder's: a holder that lost the row while it could not reach
 * the database writes nothing more, and learns it at its next heartbeat.
 */
@Component
public class RunLock {

    /** How often the holder renews its heartbeat, unless the constructor is told otherwise. */
    public static final Duration HEARTBEAT = Duration.ofSeconds(1);
    /** How long a run watches a holder's heartbeat for a sign of life before it takes the lock over, by default. */
    public static final Duration LIVENESS = Duration.ofSeconds(5);

    /** The locks held in this JVM, as {@code url#epoch}: a holder here is alive. */
    private static final Set<String> HELD_HERE = ConcurrentHashMap.newKeySet();

    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final Duration heartbeat;
    private final Duration liveness;
    private volatile Held current;
    private volatile DatabaseId databaseId;

    /** The lock with the product's durations: {@link #HEARTBEAT} and {@link #LIVENESS}. */
    @Autowired
    public RunLock(DataSource dataSource) {
        this(dataSource, HEARTBEAT, LIVENESS);
    }

    /**
     * @param heartbeat how often a holder renews its heartbeat
     * @param liveness how long a run watches a silent holder before it takes the lock over; longer than
     *     {@code heartbeat}, or a live holder would be taken for dead
     */
    public RunLock(DataSource dataSource, Duration heartbeat, Duration liveness) {
        if (heartbeat.isZero() || heartbeat.isNegative() || liveness.compareTo(heartbeat) <= 0) {
            throw new IllegalArgumentException(
                    "the run lock needs 0 < heartbeat (" + heartbeat + ") < liveness (" + liveness + ")");
        }
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
        this.heartbeat = heartbeat;
        this.liveness = liveness;
    }

    /** The lock row as read. */
    private record Row(String holder, long epoch, OffsetDateTime heartbeat, double secondsSinceHeartbeat) {}

    /** The database the lock is in: PostgreSQL is shared by processes on any machine, the H2 file admits one. */
    private record DatabaseId(Dialect dialect, String url) {
        boolean embedded() {
            return dialect == Dialect.H2;
        }
    }

    /**
     * Takes the lock, starting its heartbeat.
     *
     * @param say where the lock reports that the database went away and came back, once each
     * @throws RunInProgressException if another run holds it and is alive
     */
    public Held acquire(Consumer<String> say) {
        DatabaseId database = databaseId();
        String me = ThisProcess.id();
        Row seen = null;
        long watchUntil = 0;
        while (true) {
            Row row = read();
            if (row.holder() == null) {
                if (take(row, me, "holder IS NULL")) {
                    return held(row.epoch() + 1, me, database, say);
                }
                continue;
            }
            if (HELD_HERE.contains(database.url() + "#" + row.epoch())) {
                throw busy(row);
            }
            if (database.embedded()) {
                // The file admits one process: a holder outside this one has died.
                if (take(row, me, "holder = ?", row.holder())) {
                    return held(row.epoch() + 1, me, database, say);
                }
                continue;
            }
            if (seen == null || seen.epoch() != row.epoch()) {
                seen = row;
                watchUntil = System.nanoTime() + liveness.toNanos();
            } else if (!row.heartbeat().equals(seen.heartbeat())) {
                throw busy(row);
            } else if (System.nanoTime() >= watchUntil) {
                if (take(row, me, "holder = ? AND heartbeat_at = ?", row.holder(), row.heartbeat())) {
                    say.accept("took over the run lock from " + row.holder() + ", silent for "
                            + Math.round(row.secondsSinceHeartbeat()) + " s");
                    return held(row.epoch() + 1, me, database, say);
                }
                seen = null;
                continue;
            }
            // Looks four times a heartbeat, so a live holder is seen within one.
            pause(Math.max(1, heartbeat.toMillis() / 4));
        }
    }

    /**
     * Checks, in the caller's transaction, that this process still holds the lock under its epoch;
     * on PostgreSQL the row stays key-share-locked until that transaction ends, so a takeover waits for
     * it (the heartbeat, which changes no key, does not).
     *
     * @throws RunLockLostException if another run has taken the lock over
     */
    public void checkHeld() {
        Held held = current;
        if (held == null) {
            throw new IllegalStateException("this process holds no run lock");
        }
        List<Long> epochs = jdbc.queryForList(
                "SELECT epoch FROM run_lock WHERE lock_id = 1 AND epoch = ? AND holder = ?"
                        + (databaseId().embedded() ? "" : " FOR KEY SHARE"),
                Long.class,
                held.epoch(),
                held.holder());
        if (epochs.isEmpty()) {
            held.lostTo(holderNow());
            throw held.lostException();
        }
    }

    /** The lock this process holds now, if any. */
    public Optional<Held> held() {
        return Optional.ofNullable(current);
    }

    /**
     * Takes the row over, in one transaction. On PostgreSQL it is first locked FOR UPDATE, which
     * waits for the writes in flight under the old epoch (each holds it FOR KEY SHARE until it
     * commits); the holder's heartbeat, a plain update, never waits for them.
     */
    private boolean take(Row row, String me, String condition, Object... values) {
        Object[] arguments = new Object[values.length + 2];
        arguments[0] = me;
        arguments[1] = row.epoch();
        System.arraycopy(values, 0, arguments, 2, values.length);
        Boolean taken = new TransactionTemplate(new DataSourceTransactionManager(dataSource)).execute(status -> {
            if (!databaseId().embedded()) {
                jdbc.queryForList("SELECT epoch FROM run_lock WHERE lock_id = 1 FOR UPDATE", Long.class);
            }
            return jdbc.update("""
                    UPDATE run_lock SET holder = ?, epoch = epoch + 1, acquired_at = CURRENT_TIMESTAMP,
                        heartbeat_at = CURRENT_TIMESTAMP
                    WHERE lock_id = 1 AND epoch = ? AND\s""" + condition, arguments) == 1;
        });
        return Boolean.TRUE.equals(taken);
    }

    private Held held(long epoch, String me, DatabaseId database, Consumer<String> say) {
        Held held = new Held(epoch, me, database.url(), say);
        HELD_HERE.add(database.url() + "#" + epoch);
        current = held;
        held.startHeartbeat();
        return held;
    }

    private Row read() {
        return jdbc.queryForObject(
                """
                SELECT holder, epoch, heartbeat_at, EXTRACT(EPOCH FROM (CURRENT_TIMESTAMP - heartbeat_at))
                FROM run_lock WHERE lock_id = 1""",
                (rs, i) -> new Row(
                        rs.getString(1), rs.getLong(2), rs.getObject(3, OffsetDateTime.class), rs.getDouble(4)));
    }

    private String holderNow() {
        try {
            Row row = read();
            return row.holder() == null ? "nobody (released)" : row.holder() + " (epoch " + row.epoch() + ")";
        } catch (RuntimeException e) {
            return "another run";
        }
    }

    private static RunInProgressException busy(Row row) {
        return new RunInProgressException("another nqueens run is using this database (" + row.holder() + ", heartbeat "
                + Math.max(0, Math.round(row.secondsSinceHeartbeat())) + " s ago); one run at a time");
    }

    private DatabaseId databaseId() {
        DatabaseId known = databaseId;
        if (known == null) {
            known = jdbc.execute((ConnectionCallback<DatabaseId>) connection -> new DatabaseId(
                    Dialect.of(connection), connection.getMetaData().getURL()));
            databaseId = known;
        }
        return known;
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the run lock", e);
        }
    }

    /**
     * The lock held by this process: its epoch, its heartbeat and what it has seen of the database.
     * Closing it stops the heartbeat and frees the lock, if it is still this process's.
     */
    public final class Held implements AutoCloseable {

        private final long epoch;
        private final String holder;
        private final String url;
        private final Outage database;
        private final ScheduledExecutorService beating = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "nqueens-run-lock");
            thread.setDaemon(true);
            return thread;
        });
        private volatile String lostTo;

        private Held(long epoch, String holder, String url, Consumer<String> say) {
            this.epoch = epoch;
            this.holder = holder;
            this.url = url;
            this.database = new Outage("the database", say);
        }

        public long epoch() {
            return epoch;
        }

        String holder() {
            return holder;
        }

        /** The database as the heartbeat has found it: away since when, back when. */
        public Outage database() {
            return database;
        }

        /** Whether another run has taken the lock over (seen at a heartbeat or a write's check). */
        public boolean lost() {
            return lostTo != null;
        }

        /** The failure of a run whose lock was taken over. */
        public RunLockLostException lostException() {
            return new RunLockLostException("the run lock was taken over by " + lostTo + " while this run could not"
                    + " reach the database; this run stopped without writing more");
        }

        void lostTo(String other) {
            if (lostTo == null) {
                lostTo = other;
            }
        }

        private void startHeartbeat() {
            beating.scheduleWithFixedDelay(
                    this::beat, heartbeat.toMillis(), heartbeat.toMillis(), TimeUnit.MILLISECONDS);
        }

        private void beat() {
            if (lost()) {
                return;
            }
            try {
                int renewed = jdbc.update(
                        "UPDATE run_lock SET heartbeat_at = CURRENT_TIMESTAMP"
                                + " WHERE lock_id = 1 AND epoch = ? AND holder = ?",
                        epoch,
                        holder);
                database.succeeded();
                if (renewed == 0) {
                    lostTo(holderNow());
                }
            } catch (RuntimeException e) {
                database.failed(e);
            }
        }

        @Override
        public void close() {
            beating.shutdownNow();
            try {
                beating.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HELD_HERE.remove(url + "#" + epoch);
            if (current == this) {
                current = null;
            }
            try {
                jdbc.update(
                        "UPDATE run_lock SET holder = NULL, heartbeat_at = NULL"
                                + " WHERE lock_id = 1 AND epoch = ? AND holder = ?",
                        epoch,
                        holder);
            } catch (RuntimeException e) {
                // The database is away: the next run finds the heartbeat stopped and takes the lock over.
            }
        }
    }
}
