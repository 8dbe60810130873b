package dev.nqueens.failure;

/** Another process holds what the command needs: a run the database, another command the H2 file (exit 3). */
public class BusyException extends Failure {

    public BusyException(String message) {
        super(ExitCode.BUSY, message);
    }
}
