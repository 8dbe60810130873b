package dev.nqueens.h2;

import dev.nqueens.job.NightlyJobConfiguration;
import dev.nqueens.job.RunDatabase;
import java.io.PrintStream;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The job's database on an embedded H2 file ({@code run}, {@code schedule}, a night of
 * {@code serve}): a pool that stays writable, and after each run closes the file, compacts it if the
 * run grew it, and opens it again (see {@link SwitchingH2DataSource}, {@link H2Compaction}). The web
 * server of {@code serve} has its own, read-only between runs.
 */
@Configuration(proxyBeanMethods = false)
@Profile("!serve")
@Conditional(EmbeddedH2Configuration.OnEmbeddedH2.class)
class EmbeddedH2Configuration {

    @Bean
    SwitchingH2DataSource dataSource(Environment environment,
            @Qualifier(NightlyJobConfiguration.CONSOLE) ObjectProvider<PrintStream> console) {
        return SwitchingH2DataSource.writable(H2File.of(environment.getProperty("spring.datasource.url")).orElseThrow(),
                environment.getProperty("spring.datasource.username", "sa"),
                environment.getProperty("spring.datasource.password", ""), console.getIfAvailable(() -> System.out));
    }

    @Bean
    RunDatabase compactedAfterEachRun(SwitchingH2DataSource dataSource) {
        return new RunDatabase() {
            @Override
            public <T> T writableDuring(Supplier<T> run) {
                return dataSource.writableDuring(run);
            }
        };
    }

    /** The configured database is an embedded H2 file. */
    static final class OnEmbeddedH2 implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return H2File.of(context.getEnvironment().getProperty("spring.datasource.url")).isPresent();
        }
    }
}
