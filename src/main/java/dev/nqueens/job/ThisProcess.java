package dev.nqueens.job;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Names this process in the records other processes read: {@code host:pid}. */
public final class ThisProcess {

    private static final String HOST = resolveHost();

    private ThisProcess() {}

    public static String host() {
        return HOST;
    }

    public static long pid() {
        return ProcessHandle.current().pid();
    }

    /** {@code host:pid}. */
    public static String id() {
        return HOST + ":" + pid();
    }

    private static String resolveHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
