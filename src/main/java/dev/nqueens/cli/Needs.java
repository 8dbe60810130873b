package dev.nqueens.cli;

/**
 * What a command needs started before it runs, declared by each command class in one constant;
 * {@link Launch} starts that and nothing else. Without the job and the web, no application context
 * is started at all: the settings are read and the database opened directly.
 *
 * @param database how the command uses the database
 * @param job the nightly job's machinery (Spring Batch, its beans)
 * @param web the web server and its pages
 * @param cluster the command works in cluster mode whatever the settings say (the broker must answer)
 * @param exports the command writes the reports (the output folder must be writable)
 */
public record Needs(Database database, boolean job, boolean web, boolean cluster, boolean exports) {

    /** How a command uses the database. */
    public enum Database {
        /** Not at all. */
        NONE,
        /** Reads only: an H2 file read-only and never created; the schema version checked. */
        READ,
        /** Writes rows: the schema version checked, never migrated. */
        WRITE,
        /** Runs the job: the schema migrated, a killed run's H2 file rebuilt first. */
        MIGRATE
    }

    /** Nothing but the command line ({@code count}). */
    public static final Needs NOTHING = new Needs(Database.NONE, false, false, false, false);
    /** The settings and the database to read ({@code show}, {@code sql}, {@code history}, {@code verify}). */
    public static final Needs READING = new Needs(Database.READ, false, false, false, false);

    /** Whether an application context must be started. */
    public boolean context() {
        return job || web;
    }
}
