package dev.nqueens.cli;

import dev.nqueens.h2.HeldFile;

/**
 * The packaged jar's entry point: runs one command line ({@link NqueensCommand}) and exits with its
 * code. Only what the command declares it needs is started: {@code count} loads neither the settings
 * nor Spring, the reading commands no application context.
 */
public final class Main {

    static {
        // H2 keeps recently read strings and numbers in a cache of its own, hashing every value read;
        // the JVM's own allocation is cheaper (docs/performance.md).
        if (System.getProperty("h2.objectCache") == null) {
            System.setProperty("h2.objectCache", "false");
        }
        // Read once when H2 loads: the servers through which a holder serves the file listen on
        // the loopback interface alone.
        if (System.getProperty(HeldFile.BIND_ADDRESS) == null) {
            System.setProperty(HeldFile.BIND_ADDRESS, "127.0.0.1");
        }
    }

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, Console.system()));
    }

    /** Runs one command line in this JVM (the tests do) and returns its exit code. */
    public static int run(String[] args, Console console) {
        return NqueensCommand.execute(args, console);
    }
}
