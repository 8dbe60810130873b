package dev.nqueens.h2;

import java.io.PrintStream;

/**
 * H2's servers print the stack trace of every failed client request (a wrong password, a refused
 * write) on stderr. For the console of {@code db-server} this keeps one line per failure: what the
 * server threads print as a throwable becomes "nqueens db-server: client error: message", and
 * their stack frames are dropped. Output of other threads passes unchanged.
 */
final class ClientErrors extends PrintStream {

    private ClientErrors(PrintStream target) {
        super(target, true);
    }

    /** Installs the filter on {@code System.err} (once). */
    static synchronized void reportOnOneLine() {
        if (!(System.err instanceof ClientErrors)) {
            System.setErr(new ClientErrors(System.err));
        }
    }

    private static boolean onServerThread() {
        String thread = Thread.currentThread().getName();
        return thread.startsWith("H2 PG Server") || thread.startsWith("H2 TCP Server");
    }

    @Override
    public void println(Object line) {
        if (!onServerThread()) {
            super.println(line);
        } else if (line instanceof Throwable failure) {
            String message = String.valueOf(failure.getMessage());
            super.println("nqueens db-server: client error: " + message.lines().findFirst().orElse(message));
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
        return line.startsWith("\tat ") || line.startsWith("\t... ") || line.startsWith("Caused by: ")
                || line.startsWith("\tSuppressed: ") || line.startsWith("\t\tat ");
    }
}
