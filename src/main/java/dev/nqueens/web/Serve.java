package dev.nqueens.web;

import dev.nqueens.h2.BackupChannel;
import dev.nqueens.h2.EmbeddedH2Configuration;
import dev.nqueens.h2.H2Backup;
import dev.nqueens.h2.H2File;
import dev.nqueens.h2.HolderMarker;
import dev.nqueens.h2.SwitchingH2DataSource;
import dev.nqueens.settings.NqueensProperties;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The {@code serve} command's web server once it listens: its address, and on an embedded H2
 * file a {@link HolderMarker} beside the file while it serves, so that a {@code run} refused by the
 * file lock can say who holds it and on what schedule, and {@code backup} can ask it for a backup.
 */
@Component
@Profile(Serve.PROFILE)
public class Serve {

    /**
     * The Spring profile of the {@code serve} command: the web beans and application-serve.yml; under
     * it the embedded H2 file is read-only between runs (the h2 package, below this one, names it).
     */
    public static final String PROFILE = EmbeddedH2Configuration.READ_ONLY_BETWEEN_RUNS;

    private final NqueensProperties properties;
    private final Environment environment;
    private final DataSourceProperties database;
    private final WebServerApplicationContext context;
    private final ObjectProvider<SwitchingH2DataSource> switchingPool;

    Serve(NqueensProperties properties, Environment environment, DataSourceProperties database,
            WebServerApplicationContext context, ObjectProvider<SwitchingH2DataSource> switchingPool) {
        this.properties = properties;
        this.environment = environment;
        this.database = database;
        this.context = context;
        this.switchingPool = switchingPool;
    }

    /** Where it serves: {@code http://127.0.0.1:8080/}. */
    public String address() {
        return "http://" + environment.getProperty("server.address", "127.0.0.1") + ":"
                + context.getWebServer().getPort() + "/";
    }

    /**
     * Says where it serves and marks an embedded H2 file as held by it; the marker goes when the
     * returned handle is closed.
     */
    public AutoCloseable announce(PrintStream out, PrintStream err) {
        boolean scheduled = properties.schedule().enabled();
        Optional<HolderMarker> marker = H2File.of(database.getUrl())
                .map(file -> HolderMarker.serve(file, address(), scheduled ? Optional.of(properties.schedule().cron())
                        : Optional.empty(), BackupChannel.openOrWarn(file, this::backupTo, err)));
        out.printf("Serving %s read-only (Ctrl-C to stop)%n", address());
        if (!scheduled) {
            out.println("The nightly schedule is off (nqueens.schedule.enabled=false).");
        }
        out.flush();
        return () -> marker.ifPresent(HolderMarker::delete);
    }

    /** A backup for {@code nqueens backup}: of the database as the pool has it open, read-only or writable. */
    private void backupTo(Path zip) throws SQLException, IOException {
        SwitchingH2DataSource pool = switchingPool.getObject();
        pool.whileOpen(connection -> H2Backup.take(connection, zip));
    }
}
