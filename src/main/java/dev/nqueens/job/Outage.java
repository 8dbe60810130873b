package dev.nqueens.job;

import dev.nqueens.failure.Failure;
import dev.nqueens.settings.Durations;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * A service a running process needs (the database, the broker) as its periodic uses find it: it says
 * once when the service went away, with why, and once when it is back, with how long it was away —
 * instead of a line (or a stack trace) per failed use.
 */
public final class Outage {

    private final String service;
    private final Consumer<String> say;
    private final Clock clock;
    private Instant awaySince;
    private String lastReason;
    private int episodes;

    /** @param service how to name it: {@code the database} */
    public Outage(String service, Consumer<String> say) {
        this(service, say, Clock.systemUTC());
    }

    /** @param clock what tells the time away */
    public Outage(String service, Consumer<String> say, Clock clock) {
        this.service = service;
        this.say = say;
        this.clock = clock;
    }

    /** A use failed because the service is away. */
    public synchronized void failed(Throwable why) {
        lastReason = Failure.rootMessage(why);
        if (awaySince == null) {
            awaySince = clock.instant();
            episodes++;
            say.accept(service + " went away: " + lastReason);
        }
    }

    /** A use succeeded. */
    public synchronized void succeeded() {
        if (awaySince != null) {
            say.accept(service + " is back after " + Durations.format(awayFor().toNanos() / 1e9));
            awaySince = null;
        }
    }

    /** How long the service has been away; zero while it is there. */
    public synchronized Duration awayFor() {
        return awaySince == null ? Duration.ZERO : Duration.between(awaySince, clock.instant());
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
}
