package dev.nqueens.cli;

/** The process exit codes, as documented in the README. */
public final class ExitCodes {

    /** The command did what was asked. */
    public static final int OK = 0;
    /**
     * The job ran and failed (for example a count disagreed with the known values), stopped, or
     * {@code verify} found damage.
     */
    public static final int FAILED = 1;
    /** Bad input: an unknown command or option, an invalid value or setting, an unusable folder. */
    public static final int USAGE = 2;
    /** Another run holds the database (or another process has the H2 file open). */
    public static final int BUSY = 3;
    /** The database cannot be opened: wrong URL, unreachable server, wrong credentials. */
    public static final int DATABASE = 4;

    private ExitCodes() {
    }
}
