package dev.nqueens.failure;

/** The process exit codes, as the README's table documents them. */
public final class ExitCode {

    /** The command did what was asked. */
    public static final int OK = 0;
    /**
     * The job ran and failed (for example a count disagreed with the known values), stopped, or
     * {@code verify} found damage; the database is at another schema version than this build.
     */
    public static final int FAILED = 1;
    /** Bad input: an unknown command or option, an invalid value or setting, an unusable folder or port. */
    public static final int USAGE = 2;
    /** Another run holds the database (or another process has the H2 file open). */
    public static final int BUSY = 3;
    /**
     * A required service — the database or, in cluster mode, the broker — cannot be reached: wrong
     * URL, unreachable server, wrong credentials, no database yet.
     */
    public static final int UNAVAILABLE = 4;
    /** The run's time window closed before its work was done; the next run goes on. Neither a success nor a failure. */
    public static final int WINDOW_CLOSED = 5;

    private ExitCode() {}
}
