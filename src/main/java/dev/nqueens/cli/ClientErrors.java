package dev.nqueens.cli;

import java.io.PrintStream;

/**
 * The servers {@code db-server} runs (H2's) print the stack trace of every failed client request
 * (a wrong password, a refused write) on stderr. This keeps one line per failure on its console:
 * what a server thread (any thread but the command's own) prints as a throwable becomes
 * "nqueens db-server: client error: message", and its stack frames are dropped. What the
 * command's thread prints passes unchanged.
 */
final class ClientErrors extends PrintStream {

    private final Thread command;

    private ClientErrors(PrintStream target, Thread command) {
        super(target, true);
        this.command = command;
    }

    /** Installs the filter on {@code System.err} (once), for the servers the calling thread starts. */
    static synchronized void reportOnOneLine() {
        if (!(System.err instanceof ClientErrors)) {
            System.setErr(new ClientErrors(System.err, Thread.currentThread()));
        }
    }

    private boolean onServerThread() {
        return Thread.currentThread() != command;
    }

    @Override
    public void println(Object line) {
        if (!onServerThread()) {
            super.println(line);
        } else if (line instanceof Throwable failure) {
            String message = String.valueOf(failure.getMessage());
            super.println("nqueens db-server: client error: "
                    + message.lines().findFirst().orElse(message));
        } else if (!isStackLine(String.valueOf(line))) {
            super.println(line);
        }
    }

    @Override
    public void println(String line) {
        if (!onServerThread() || !isStackLine(line)) {
            super.println(line);
        }
    }

    private static boolean isStackLine(String line) {
        return line.startsWith("\tat ")
                || line.startsWith("\t... ")
                || line.startsWith("Caused by: ")
                || line.startsWith("\tSuppressed: ")
                || line.startsWith("\t\tat ");
    }
}
