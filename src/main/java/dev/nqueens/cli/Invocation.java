package dev.nqueens.cli;

import dev.nqueens.settings.BoardSizes;
import dev.nqueens.settings.StorageLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;

/**
 * What the user asked for, parsed and checked before anything is started: a command and its
 * options. Options that are settings ({@code --sizes}, {@code --threads}, the storage limits)
 * become Spring properties with the highest precedence.
 *
 * @param command {@link #RUN}, {@link #SHOW}, {@link #COUNT}, {@link #VERIFY}, {@link #SQL}, {@link #HISTORY},
 *     {@link #SCHEDULE}, {@link #DB_SERVER}, {@link #SERVE}, {@link #WORKER}, {@link #CLUSTER} or {@link #HELP}
 * @param settings the settings this invocation overrides, as Spring command-line properties
 * @param force {@code run}: recompute sizes already published
 * @param size {@code show}, {@code count}: the board size
 * @param threads {@code count}: threads, 0 = one per core
 * @param boards {@code show}: draw each solution
 * @param fundamentalOnly {@code show}: only the class representatives
 * @param limit {@code show}: at most this many solutions; {@code history}: runs
 * @param statement {@code sql}: the query
 * @param format {@code sql}, {@code history}: table, csv or json
 */
public record Invocation(String command, List<String> settings, boolean force, int size, int threads,
        boolean boards, boolean fundamentalOnly, long limit, String statement, String format) {

    public static final String RUN = "run";
    public static final String SHOW = "show";
    public static final String COUNT = "count";
    public static final String VERIFY = "verify";
    public static final String SQL = "sql";
    public static final String HISTORY = "history";
    public static final String SCHEDULE = "schedule";
    public static final String DB_SERVER = "db-server";
    public static final String SERVE = "serve";
    public static final String WORKER = "worker";
    public static final String CLUSTER = "cluster";
    public static final String HELP = "help";
    private static final String COMMANDS = " (commands: run, show, count, verify, sql, history, schedule, db-server,"
            + " serve, worker, cluster; see --help)";
    /** Worker and cluster commands are cluster mode whatever the configuration says. */
    private static final String CLUSTER_MODE = "--nqueens.cluster.enabled=true";

    @Command(name = "nqueens", subcommands = {RunOptions.class, ShowOptions.class, CountOptions.class,
            VerifyOptions.class, SqlOptions.class, HistoryOptions.class, ScheduleOptions.class, DbServerOptions.class,
            ServeOptions.class, WorkerOptions.class, ClusterOptions.class},
            description = "Solves the N-Queens problem for a range of board sizes, stores and exports the solutions.")
    static final class Root {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
        boolean help;
    }

    @Command(name = RUN, description = "Run the nightly job: solve, store, reduce, export.")
    static final class RunOptions {
        @Option(names = "--sizes", paramLabel = "LIST", description = "Board sizes, e.g. 1-12 or 4,8,10-12.")
        String sizes;

        @Option(names = "--threads", paramLabel = "T", description = "Partitions solved at once (default: cores).")
        String threads;

        @Option(names = "--store-all-up-to", paramLabel = "N",
                description = "Store every solution of sizes up to N.")
        String allUpTo;

        @Option(names = "--store-fundamental-up-to", paramLabel = "N",
                description = "Store the class representatives of sizes up to N; larger sizes only their counts.")
        String fundamentalUpTo;

        @Option(names = "--force", description = "Recompute sizes that are already stored.")
        boolean force;

        @Option(names = "--window", paramLabel = "DURATION",
                description = "Take new work for at most this long (e.g. 5h, 90m); then stop and exit 5.")
        String window;
    }

    @Command(name = SHOW, description = "Print the stored solutions of one board size.")
    static final class ShowOptions {
        @Parameters(index = "0", paramLabel = "N", description = "The board size.")
        String size;

        @Option(names = "--boards", description = "Print each solution as a board of Q and dots.")
        boolean boards;

        @Option(names = "--fundamental", description = "Only the class representatives.")
        boolean fundamental;

        @Option(names = "--limit", paramLabel = "K", description = "Print at most K solutions.")
        String limit;
    }

    @Command(name = COUNT, description = "Count one board size without storing anything; print the rate.")
    static final class CountOptions {
        @Parameters(index = "0", paramLabel = "N", description = "The board size.")
        String size;

        @Option(names = "--threads", paramLabel = "T", description = "Threads (default: cores).")
        String threads;
    }

    @Command(name = VERIFY, description = "Re-check everything stored and exported; exit 0 only if all holds.")
    static final class VerifyOptions {
    }

    @Command(name = SQL, description = "Run one read-only SQL statement; print a table, CSV or JSON.")
    static final class SqlOptions {
        @Parameters(index = "0", paramLabel = "STATEMENT", description = "One SELECT (or WITH, VALUES, EXPLAIN) in quotes.")
        String statement;

        @Option(names = "--format", paramLabel = "F", description = "table (default), csv or json.")
        String format;
    }

    @Command(name = HISTORY, description = "List past runs: start, end, status, sizes, rows written, duration.")
    static final class HistoryOptions {
        @Option(names = "--limit", paramLabel = "K", description = "The last K runs (default 20).")
        String limit;

        @Option(names = "--format", paramLabel = "F", description = "table (default), csv or json.")
        String format;
    }

    @Command(name = SCHEDULE, description = "Run the job in the foreground on the cron schedule nqueens.schedule.cron.")
    static final class ScheduleOptions {
    }

    @Command(name = DB_SERVER, description = "Serve the embedded H2 database read-only on 127.0.0.1 over the PostgreSQL"
            + " protocol (psql, GUI clients) and H2's TCP protocol, until Ctrl-C.")
    static final class DbServerOptions {
        @Option(names = "--pg-port", paramLabel = "PORT", description = "PostgreSQL protocol port (default 5435).")
        String pgPort;

        @Option(names = "--tcp-port", paramLabel = "PORT", description = "H2 TCP port (default 9092).")
        String tcpPort;
    }

    @Command(name = SERVE, description = "Serve the results read-only over HTTP on 127.0.0.1 (report, board pictures,"
            + " downloads, JSON API, health) until Ctrl-C; runs the nightly schedule too (nqueens.schedule.enabled).")
    static final class ServeOptions {
        @Option(names = "--port", paramLabel = "PORT", description = "HTTP port (default 8080, setting server.port).")
        String port;
    }

    @Command(name = WORKER, description = "Cluster mode: take partitions of the nightly job from the broker and execute"
            + " them against the shared database, until SIGTERM.")
    static final class WorkerOptions {
        @Option(names = "--threads", paramLabel = "T", description = "Partitions executed at once (default: cores).")
        String threads;
    }

    @Command(name = CLUSTER, description = "Cluster mode: show the workers, what they run, and the partitions of the"
            + " current run.")
    static final class ClusterOptions {
    }

    /** The usage text of all commands. */
    public static String usage() {
        CommandLine root = new CommandLine(new Root());
        StringBuilder text = new StringBuilder(root.getUsageMessage());
        root.getSubcommands().values().forEach(sub -> text.append(System.lineSeparator()).append(sub.getUsageMessage()));
        return text.toString();
    }

    /**
     * @throws UsageException naming what is wrong and what is allowed
     */
    public static Invocation parse(String... args) {
        ParseResult result;
        try {
            result = new CommandLine(new Root()).parseArgs(args);
        } catch (ParameterException e) {
            throw new UsageException(e.getMessage().lines().findFirst().orElse("bad arguments") + COMMANDS);
        }
        if (result.isUsageHelpRequested()) {
            return simple(HELP);
        }
        if (!result.hasSubcommand()) {
            throw new UsageException("no command given" + COMMANDS);
        }
        Object options = result.subcommand().commandSpec().userObject();
        if (options instanceof RunOptions run) {
            return parseRun(run);
        }
        if (options instanceof CountOptions count) {
            int threads = count.threads == null ? 0 : positive("--threads", count.threads, "a whole number >= 1");
            return new Invocation(COUNT, List.of(), false, oneSize(count.size, COUNT), threads, false, false, 0, null,
                    null);
        }
        if (options instanceof VerifyOptions) {
            return simple(VERIFY);
        }
        if (options instanceof WorkerOptions worker) {
            List<String> settings = new ArrayList<>(List.of(CLUSTER_MODE));
            if (worker.threads != null) {
                settings.add("--nqueens.threads=" + positive("--threads", worker.threads, "a whole number of threads >= 1"));
            }
            return new Invocation(WORKER, List.copyOf(settings), false, 0, 0, false, false, 0, null, null);
        }
        if (options instanceof ClusterOptions) {
            return new Invocation(CLUSTER, List.of(CLUSTER_MODE), false, 0, 0, false, false, 0, null, null);
        }
        if (options instanceof ScheduleOptions) {
            return simple(SCHEDULE);
        }
        if (options instanceof DbServerOptions server) {
            List<String> settings = new ArrayList<>();
            if (server.pgPort != null) {
                settings.add("--nqueens.db-server.pg-port=" + port("--pg-port", server.pgPort));
            }
            if (server.tcpPort != null) {
                settings.add("--nqueens.db-server.tcp-port=" + port("--tcp-port", server.tcpPort));
            }
            return new Invocation(DB_SERVER, List.copyOf(settings), false, 0, 0, false, false, 0, null, null);
        }
        if (options instanceof ServeOptions serve) {
            List<String> settings = serve.port == null ? List.of()
                    : List.of("--server.port=" + port("--port", serve.port));
            return new Invocation(SERVE, settings, false, 0, 0, false, false, 0, null, null);
        }
        if (options instanceof SqlOptions sql) {
            return new Invocation(SQL, List.of(), false, 0, 0, false, false, 0, sql.statement, format(sql.format));
        }
        if (options instanceof HistoryOptions history) {
            long limit = history.limit == null ? 20 : positive("--limit", history.limit, "a whole number of runs >= 1");
            return new Invocation(HISTORY, List.of(), false, 0, 0, false, false, limit, null, format(history.format));
        }
        ShowOptions show = (ShowOptions) options;
        long limit = show.limit == null ? Long.MAX_VALUE
                : positive("--limit", show.limit, "a whole number of solutions >= 1");
        return new Invocation(SHOW, List.of(), false, oneSize(show.size, SHOW), 0, show.boards, show.fundamental,
                limit, null, null);
    }

    private static Invocation parseRun(RunOptions run) {
        List<String> settings = new ArrayList<>();
        if (run.sizes != null) {
            settings.add("--nqueens.sizes=" + sizes(run.sizes));
        }
        if (run.threads != null) {
            settings.add("--nqueens.threads=" + positive("--threads", run.threads, "a whole number of threads >= 1"));
        }
        Optional<Integer> all = Optional.ofNullable(run.allUpTo).map(text -> limit("--store-all-up-to", text));
        Optional<Integer> fundamental = Optional.ofNullable(run.fundamentalUpTo)
                .map(text -> limit("--store-fundamental-up-to", text));
        if (run.window != null) {
            settings.add("--nqueens.schedule.window=" + window("--window", run.window).toString());
        }
        all.ifPresent(value -> settings.add("--nqueens.storage.all-up-to=" + value));
        fundamental.ifPresent(value -> settings.add("--nqueens.storage.fundamental-up-to=" + value));
        if (all.isPresent() && fundamental.isPresent()) {
            try {
                new StorageLimits(all.get(), fundamental.get());
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        return new Invocation(RUN, List.copyOf(settings), run.force, 0, 0, false, false, 0, null, null);
    }

    private static Invocation simple(String command) {
        return new Invocation(command, List.of(), false, 0, 0, false, false, 0, null, null);
    }

    private static String format(String text) {
        String format = text == null ? "table" : text.trim().toLowerCase(java.util.Locale.ROOT);
        if (!List.of("table", "csv", "json").contains(format)) {
            throw new UsageException("invalid value '" + text + "' for --format: table, csv or json");
        }
        return format;
    }

    /** The settings this invocation overrides, as Spring command-line arguments. */
    public String[] springArguments() {
        return settings.toArray(String[]::new);
    }

    private static int oneSize(String text, String command) {
        BoardSizes one = sizes(text == null ? "" : text);
        if (one.sizes().size() != 1) {
            throw new UsageException(command + " takes one board size, not '" + text + "'");
        }
        return one.sizes().get(0);
    }

    private static BoardSizes sizes(String text) {
        try {
            return BoardSizes.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static int limit(String option, String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 0 && value <= BoardSizes.MAX) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with what is allowed
        }
        throw new UsageException("invalid value '" + text + "' for " + option + ": a board size 0.." + BoardSizes.MAX
                + " (0 = none)");
    }

    /**
     * A time window: a positive duration such as {@code 5h}, {@code 90m} or {@code PT5H}.
     *
     * @throws UsageException if it is not a duration, or not positive
     */
    public static java.time.Duration window(String option, String text) {
        java.time.Duration window;
        try {
            window = org.springframework.boot.convert.DurationStyle.detectAndParse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid value '" + text + "' for " + option
                    + ": a duration such as 5h, 90m or 30s");
        }
        if (window.isZero() || window.isNegative()) {
            throw new UsageException("invalid value '" + text + "' for " + option
                    + ": the window must be longer than zero");
        }
        return window;
    }

    private static int port(String option, String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 1 && value <= 65535) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with what is allowed
        }
        throw new UsageException("invalid value '" + text + "' for " + option + ": a TCP port 1..65535");
    }

    private static int positive(String option, String text, String allowed) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with what is allowed
        }
        throw new UsageException("invalid value '" + text + "' for " + option + ": " + allowed);
    }
}
