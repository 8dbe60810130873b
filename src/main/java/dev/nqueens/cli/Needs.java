package dev.nqueens.cli;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a command needs started before it runs, declared by each command class in one constant;
 * {@link Launch} starts that and nothing else. Without the job and the web, no application context
 * is started at all: the settings are read and the database opened directly.
 *
 * @param database how the command uses the database
 * @param parts the rest it needs
 */
record Needs(Database database, Set<Part> parts) {

    /** How a command uses the database. */
    enum Database {
        /** Not at all. */
        NONE,
        /** Reads only: with the reading login, never created; the schema version checked. */
        READ,
        /** Writes rows: the schema version checked, never migrated. */
        WRITE,
        /** Runs the job: the schema migrated, a killed run's H2 file rebuilt first. */
        MIGRATE
    }

    /** What else a command may need. */
    enum Part {
        /** The nightly job's machinery (Spring Batch, its beans). */
        JOB,
        /** The web server and its pages. */
        WEB,
        /** Cluster mode whatever the settings say: the broker must answer. */
        CLUSTER,
        /** The reports are written: the output folder must be writable. */
        EXPORTS
    }

    Needs {
        parts = parts.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(parts));
    }

    /** The database used as {@code database}, and {@code parts}. */
    static Needs of(Database database, Part... parts) {
        return new Needs(database, Set.of(parts));
    }

    /** Nothing but the command line and the settings. */
    static final Needs NOTHING = of(Database.NONE);
    /** The settings and the database to read ({@code show}, {@code sql}, {@code history}, {@code verify}). */
    static final Needs READING = of(Database.READ);

    boolean job() {
        return parts.contains(Part.JOB);
    }

    boolean web() {
        return parts.contains(Part.WEB);
    }

    boolean cluster() {
        return parts.contains(Part.CLUSTER);
    }

    boolean exports() {
        return parts.contains(Part.EXPORTS);
    }

    /** Whether an application context must be started. */
    boolean context() {
        return job() || web();
    }
}
