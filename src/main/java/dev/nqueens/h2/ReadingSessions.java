package dev.nqueens.h2;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Keeps the reading sessions of a held file from taking its holder down: a reading statement that
 * has run longer than the statement timeout is cancelled (also one whose client is gone), and a
 * reading session that makes another session wait for a lock (a {@code SELECT … FOR UPDATE} left
 * open) is aborted, its transaction rolled back. Reading sessions are those of the reading logins;
 * a reader cannot lift this, unlike H2's per-session {@code QUERY_TIMEOUT}, and unlike H2's
 * database-wide {@code MAX_QUERY_TIMEOUT} it leaves the holder's own statements (a run's index
 * builds and exports) unbounded. And when the heap stays nearly full after a collection (H2 keeps a
 * grouping's groups in memory, and runs out of it shuts the database down), every reading statement
 * is cancelled: the reader fails, the holder goes on.
 */
final class ReadingSessions implements AutoCloseable {

    /** How often the sessions are looked at: well within the time a writer waits for a lock. */
    static final Duration INTERVAL = Duration.ofMillis(250);

    private static final String SESSIONS = """
            SELECT s.session_id, s.user_name, s.executing_statement_start,
                   EXISTS (SELECT 1 FROM information_schema.sessions w WHERE w.blocker_id = s.session_id) AS blocking
            FROM information_schema.sessions s""";

    /** The share of a heap pool still in use after a collection from which reading statements are cancelled. */
    static final double HEAP_NEARLY_FULL = 0.8;

    private final Supplier<Connection> owner;
    private final Set<String> readers;
    private final Duration timeout;
    private final Clock clock;
    private final ScheduledExecutorService ticks;
    private final List<MemoryPoolMXBean> heap = heapPoolsWatched();
    private long nearlyFullSeen = nearlyFullCount();
    private Connection connection;

    /**
     * @param owner opens a connection with the owner's login, which sees every session
     * @param readers the reading logins
     * @param timeout how long a reading statement may run
     */
    ReadingSessions(Supplier<Connection> owner, Set<String> readers, Duration timeout, Clock clock) {
        this.owner = owner;
        this.readers =
                readers.stream().map(name -> name.toUpperCase(Locale.ROOT)).collect(Collectors.toSet());
        this.timeout = timeout;
        this.clock = clock;
        this.ticks = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "nqueens-reading-sessions");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Looks at the sessions every {@link #INTERVAL} until closed. */
    ReadingSessions start() {
        ticks.scheduleWithFixedDelay(
                this::tickQuietly, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void tickQuietly() {
        try {
            tick();
        } catch (SQLException | RuntimeException e) {
            // The database is closing or was lost: the next tick opens a connection again.
            closeConnection();
        }
    }

    /**
     * Cancels each overdue reading statement and aborts each reading session another one waits for.
     *
     * @return the sessions it acted on
     */
    synchronized List<Integer> tick() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = owner.get();
        }
        List<Integer> overdue = new ArrayList<>();
        List<Integer> blocking = new ArrayList<>();
        OffsetDateTime now = OffsetDateTime.now(clock);
        long nearlyFull = nearlyFullCount();
        boolean memoryShort = nearlyFull > nearlyFullSeen;
        nearlyFullSeen = nearlyFull;
        try (PreparedStatement sessions = connection.prepareStatement(SESSIONS);
                ResultSet rows = sessions.executeQuery()) {
            while (rows.next()) {
                if (!readers.contains(rows.getString(2).toUpperCase(Locale.ROOT))) {
                    continue;
                }
                OffsetDateTime started = rows.getObject(3, OffsetDateTime.class);
                if (rows.getBoolean(4)) {
                    blocking.add(rows.getInt(1));
                } else if (started != null
                        && (memoryShort || Duration.between(started, now).compareTo(timeout) > 0)) {
                    overdue.add(rows.getInt(1));
                }
            }
        }
        call("CANCEL_SESSION", overdue);
        call("ABORT_SESSION", blocking);
        List<Integer> acted = new ArrayList<>(overdue);
        acted.addAll(blocking);
        return acted;
    }

    /**
     * The heap pools whose use after a collection the JVM can compare with a threshold (the old
     * generation), each given the threshold of {@link #HEAP_NEARLY_FULL} of its maximum.
     */
    private static List<MemoryPoolMXBean> heapPoolsWatched() {
        List<MemoryPoolMXBean> pools = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            long max = pool.getUsage().getMax();
            if (pool.getType() == MemoryType.HEAP && pool.isCollectionUsageThresholdSupported() && max > 0) {
                pool.setCollectionUsageThreshold((long) (max * HEAP_NEARLY_FULL));
                pools.add(pool);
            }
        }
        return pools;
    }

    /** How many times a collection has left a watched pool above its threshold, since the JVM started. */
    private long nearlyFullCount() {
        return heap.stream()
                .mapToLong(MemoryPoolMXBean::getCollectionUsageThresholdCount)
                .sum();
    }

    private void call(String function, List<Integer> sessions) throws SQLException {
        for (int session : sessions) {
            try (PreparedStatement call = connection.prepareStatement("SELECT " + function + "(?)")) {
                call.setInt(1, session);
                call.execute();
            }
        }
    }

    private synchronized void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // already gone with the database
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        ticks.shutdownNow();
        try {
            ticks.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeConnection();
    }
}
