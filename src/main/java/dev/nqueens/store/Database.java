package dev.nqueens.store;

import dev.nqueens.failure.BusyException;
import dev.nqueens.failure.UnavailableException;
import dev.nqueens.h2.H2File;
import dev.nqueens.h2.HeldFile;
import dev.nqueens.settings.NqueensProperties;
import java.nio.file.Files;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The configured database ({@code spring.datasource.*}) and the one way commands open it, with or
 * without an application context. Reading never writes: an embedded H2 file is opened read-only
 * ({@code ACCESS_MODE_DATA=r}) and never created ({@code IFEXISTS=TRUE}); while a command holds the
 * file ({@code run}, {@code schedule}, {@code serve}, {@code db-server}), reading goes through it
 * (H2's TCP server, the read-only login).
 *
 * @param url the JDBC URL as configured
 * @param username the login
 * @param password its password
 * @param reader the read-only login a holder of the H2 file admits readers with
 */
public record Database(String url, String username, String password, NqueensProperties.DbServer reader) {

    /** The database the environment configures, read as Boot reads it ({@link DataSourceProperties}). */
    public static Database of(Environment environment, NqueensProperties settings) {
        DataSourceProperties configured = configured(environment);
        String url = Objects.requireNonNullElse(configured.getUrl(), "");
        if (H2File.of(url).isPresent()) {
            return new Database(url, H2File.username(configured), H2File.password(configured), settings.dbServer());
        }
        // Other databases: the login as configured, or none (the URL may carry it: ?user=…&password=…).
        return new Database(url, configured.getUsername(), configured.getPassword(), settings.dbServer());
    }

    /** The {@code spring.datasource.*} settings of {@code environment}, bound as Boot binds them. */
    public static DataSourceProperties configured(Environment environment) {
        return Binder.get(environment).bindOrCreate("spring.datasource", DataSourceProperties.class);
    }

    /** The URL as shown to people: without its options and query, where credentials may hide. */
    public String shownUrl() {
        return url.replaceAll("[;?].*$", "");
    }

    /** The embedded H2 file, if the URL names one. */
    public Optional<H2File> h2File() {
        return H2File.of(url);
    }

    public boolean isPostgres() {
        return url.startsWith("jdbc:postgresql:");
    }

    /**
     * The URL a reading command connects with: the H2 file read-only; other databases as
     * configured. A command that answers one request and ends ({@code oneRequest}: {@code sql},
     * {@code show}, {@code history}, {@code verify}) goes through the holder's server while a
     * command holds the file, and otherwise opens it as {@link H2File#readOnceUrl()} says;
     * {@code backup} opens it by its own URL, read-only.
     *
     * @throws UnavailableException if no driver takes the URL, or the H2 file does not exist
     */
    public Access reading(boolean oneRequest) {
        requireDriver();
        Optional<H2File> file = h2File();
        if (file.isEmpty()) {
            return new Access(url, username, password);
        }
        Optional<HeldFile.Holder> holder = oneRequest ? HeldFile.holder(file.get()) : Optional.empty();
        if (holder.isPresent()) {
            return new Access(holder.get().url(file.get()), reader.user(), reader.password());
        }
        if (!Files.exists(file.get().dataFile())) {
            throw missing();
        }
        return new Access((oneRequest ? file.get().readOnceUrl() : file.get().readOnlyUrl()) + ";IFEXISTS=TRUE",
                username, password);
    }

    /**
     * The URL a command that writes rows but never creates the database connects with: the
     * configured one, an H2 file only if it exists and no other long-running command holds it.
     *
     * @throws UnavailableException if no driver takes the URL, or the H2 file does not exist
     * @throws BusyException if a long-running command holds the H2 file ({@link #refuseWhileHeld})
     */
    public Access writing() {
        requireDriver();
        refuseWhileHeld();
        Optional<H2File> file = h2File();
        if (file.isPresent() && !Files.exists(file.get().dataFile())) {
            throw missing();
        }
        return new Access(file.isPresent() ? url + ";IFEXISTS=TRUE" : url, username, password);
    }

    /**
     * The URL the commands that run the job connect with: the configured one, which creates an H2
     * file that does not exist yet.
     *
     * @throws UnavailableException if no driver takes the URL
     * @throws BusyException if a long-running command holds the H2 file ({@link #refuseWhileHeld})
     */
    public Access migrating() {
        requireDriver();
        refuseWhileHeld();
        return new Access(url, username, password);
    }

    /**
     * Refuses a command that writes (exit 3) while another command holds the H2 file, as its
     * marker says ({@link HeldFile#holder}).
     *
     * @throws BusyException naming the holder
     */
    private void refuseWhileHeld() {
        h2File().flatMap(HeldFile::holder).ifPresent(live -> {
            throw BusyException.inUse(shownUrl(), live.describe());
        });
    }

    private UnavailableException missing() {
        return new UnavailableException("the database " + shownUrl() + " does not exist yet: `./nqueens run` creates it");
    }

    private void requireDriver() {
        try {
            DriverManager.getDriver(url);
        } catch (SQLException e) {
            throw new UnavailableException("cannot use the database " + shownUrl() + ": no JDBC driver here takes this"
                    + " URL (jdbc:h2:file:... or jdbc:postgresql://host:port/database)");
        }
    }

    /**
     * How to connect: URL and login.
     *
     * @param url the JDBC URL
     * @param username the login
     * @param password its password
     */
    public record Access(String url, String username, String password) {

        /**
         * One connection, opened at the first use and kept until {@link SingleConnectionDataSource#destroy()}
         * (the commands without a context use one at a time; an embedded H2 file would otherwise be
         * opened again for every statement).
         */
        public SingleConnectionDataSource dataSource() {
            return new SingleConnectionDataSource(url, username, password, true);
        }
    }
}
