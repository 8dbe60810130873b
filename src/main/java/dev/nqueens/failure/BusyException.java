package dev.nqueens.failure;

/** Another process holds what the command needs: a run the database, another command the H2 file (exit 3). */
public class BusyException extends Failure {

    public BusyException(String message) {
        super(ExitCode.BUSY, message);
    }

    /** "the database URL is in use by HOLDER; one run at a time". */
    public static BusyException inUse(String url, String holder) {
        return new BusyException("the database " + url + " is in use by " + holder + "; one run at a time");
    }

    /** A holder as the message names it: "`nqueens serve` (pid 12, http://…)", {@code more} in the parentheses. */
    public static String holder(String command, long pid, String more) {
        return "`nqueens " + command + "` (pid " + pid + more + ")";
    }
}
