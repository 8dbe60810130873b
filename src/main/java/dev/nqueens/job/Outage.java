package dev.nqueens.job;

import dev.nqueens.failure.Failure;
import dev.nqueens.settings.Durations;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A service a running process needs (the database, the broker) as its periodic uses find it: it says
 * once when the service went away, with why, and once when it is back, with how long it was away —
 * instead of a line (or a stack trace) per failed use.
 */
public final class Outage {

    private final String service;
    private final Consumer<String> say;
    private long awaySince = -1;
    private String lastReason;
    private int episodes;

    /** @param service how to name it: {@code the database} */
    public Outage(String service, Consumer<String> say) {
        this.service = service;
        this.say = say;
    }

    /** A use failed because the service is away. */
    public synchronized void failed(Throwable why) {
        lastReason = firstLineOfRoot(why);
        if (awaySince < 0) {
            awaySince = System.nanoTime();
            episodes++;
            say.accept(service + " went away: " + lastReason);
        }
    }

    /** A use succeeded. */
    public synchronized void succeeded() {
        if (awaySince >= 0) {
            say.accept(service + " is back after " + Durations.format((System.nanoTime() - awaySince) / 1e9));
            awaySince = -1;
        }
    }

    /** How long the service has been away; zero while it is there. */
    public synchronized Duration awayFor() {
        return awaySince < 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - awaySince);
    }

    /** How many times the service went away. */
    public synchronized int episodes() {
        return episodes;
    }

    /** Why the last use failed. */
    public synchronized String lastReason() {
        return lastReason;
    }

    /** The service's name, as given. */
    public String service() {
        return service;
    }

    /** The first line of the innermost cause's message. */
    public static String firstLineOfRoot(Throwable failure) {
        return Failure.rootMessage(failure);
    }
}
