package dev.nqueens.store;

import dev.nqueens.failure.BusyException;
import dev.nqueens.failure.UnavailableException;
import dev.nqueens.h2.H2File;
import dev.nqueens.h2.HeldFile;
import dev.nqueens.h2.ReadingLogin;
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
 * without an application context. Reading never writes: an embedded H2 file is read with a login
 * without admin rights, opened read-only ({@code ACCESS_MODE_DATA=r}) and never created
 * ({@code IFEXISTS=TRUE}); while a command holds the file ({@code run}, {@code schedule},
 * {@code serve}, {@code db-server}), reading goes through it (H2's TCP server).
 *
 * @param url the JDBC URL as configured
 * @param username the login
 * @param password its password
 * @param reader the read-only login db-server admits its clients with
 * @param readingLogin the reading commands' login on another database, if one is set
 */
public record Database(
        String url,
        String username,
        String password,
        NqueensProperties.DbServer reader,
        NqueensProperties.Reading readingLogin) {

    /** The database the environment configures, read as Boot reads it ({@link DataSourceProperties}). */
    public static Database of(Environment environment, NqueensProperties settings) {
        DataSourceProperties configured = configured(environment);
        String url = Objects.requireNonNullElse(configured.getUrl(), "");
        if (H2File.of(url).isPresent()) {
            return new Database(
                    url,
                    H2File.username(configured),
                    H2File.password(configured),
                    settings.dbServer(),
                    settings.reading());
        }
        // Other databases: the login as configured, or none (the URL may carry it: ?user=…&password=…).
        return new Database(
                url, configured.getUsername(), configured.getPassword(), settings.dbServer(), settings.reading());
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
     * How a reading command ({@code sql}, {@code show}, {@code history}, {@code verify}) connects:
     * to an embedded H2 file with its reading login ({@link ReadingLogin}: no admin rights), through
     * the holder's server while a command holds the file, else opening the file read-only itself
     * ({@link H2File#readOnceUrl()}), so that no statement can change the database or any file;
     * other databases as configured.
     *
     * @throws UnavailableException if no driver takes the URL, or the H2 file does not exist
     */
    public Access reading() {
        requireDriver();
        Optional<H2File> file = h2File();
        if (file.isEmpty()) {
            return readingLogin.configured()
                    ? new Access(withoutLogin(url), readingLogin.username(), readingLogin.password())
                    : new Access(url, username, password);
        }
        String login = ReadingLogin.password(Objects.requireNonNullElse(password, ""));
        Optional<HeldFile.Holder> holder = HeldFile.holder(file.get());
        if (holder.isPresent()) {
            return new Access(holder.get().url(file.get()), ReadingLogin.USER, login);
        }
        if (!Files.exists(file.get().dataFile())) {
            throw missing();
        }
        return new Access(file.get().readOnceUrl() + ";IFEXISTS=TRUE", ReadingLogin.USER, login);
    }

    /** {@code url} without the {@code user} and {@code password} of its query, which would override another login's. */
    static String withoutLogin(String url) {
        int query = url.indexOf('?');
        if (query < 0) {
            return url;
        }
        String kept = java.util.Arrays.stream(url.substring(query + 1).split("&"))
                .filter(parameter -> !parameter.startsWith("user=") && !parameter.startsWith("password="))
                .collect(java.util.stream.Collectors.joining("&"));
        return url.substring(0, query) + (kept.isEmpty() ? "" : "?" + kept);
    }

    /**
     * How {@code backup} reads an embedded H2 file nothing holds: read-only, with the owner's
     * login, which H2's {@code BACKUP TO} needs.
     *
     * @throws UnavailableException if no driver takes the URL, or the H2 file does not exist
     */
    public Access readingAsOwner() {
        requireDriver();
        H2File file = h2File().orElseThrow();
        if (!Files.exists(file.dataFile())) {
            throw missing();
        }
        return new Access(file.readOnlyUrl() + ";IFEXISTS=TRUE", username, password);
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
        return new UnavailableException(
                "the database " + shownUrl() + " does not exist yet: `./nqueens run` creates it");
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
