package dev.nqueens.h2;

import dev.nqueens.job.NightlyJobConfiguration;
import java.io.PrintStream;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The database of every command that opens an application context on an embedded H2 file: one
 * {@link SwitchingH2DataSource}, which is also the job's {@link dev.nqueens.job.RunDatabase}. After
 * each run it closes the file, compacts it if the run grew it ({@link H2Compaction}) and opens it
 * again. For {@code serve} (the profile {@value #READ_ONLY_BETWEEN_RUNS}) the file is read-only
 * between the runs of its schedule; for {@code run}, {@code schedule} and the others it stays writable.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedH2Configuration.OnEmbeddedH2.class)
public class EmbeddedH2Configuration {

    /** The profile under which the file is read-only between runs: {@code serve}'s (web.Serve.PROFILE). */
    public static final String READ_ONLY_BETWEEN_RUNS = "serve";

    @Bean
    SwitchingH2DataSource dataSource(Environment environment, DataSourceProperties configured,
            @Qualifier(NightlyJobConfiguration.CONSOLE) ObjectProvider<PrintStream> console) {
        H2File file = H2File.of(configured.getUrl()).orElseThrow();
        String user = H2File.username(configured);
        String password = H2File.password(configured);
        return environment.matchesProfiles(READ_ONLY_BETWEEN_RUNS) ? new SwitchingH2DataSource(file, user, password)
                : SwitchingH2DataSource.writable(file, user, password, console.getIfAvailable(() -> System.out));
    }

    /** The configured database is an embedded H2 file. */
    static final class OnEmbeddedH2 implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return Binder.get(context.getEnvironment()).bind("spring.datasource", DataSourceProperties.class)
                    .map(configured -> H2File.of(configured.getUrl()).isPresent()).orElse(false);
        }
    }
}
