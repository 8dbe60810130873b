package dev.nqueens.web;

import dev.nqueens.h2.H2File;
import dev.nqueens.h2.SwitchingH2DataSource;
import dev.nqueens.job.RunDatabase;
import java.util.function.Supplier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@code serve} on an embedded H2 file: the database is read-only except while a run of the
 * nightly schedule works (see {@link SwitchingH2DataSource}), whatever schedules it.
 */
@Configuration(proxyBeanMethods = false)
@Profile(Serve.PROFILE)
@Conditional(EmbeddedDatabaseConfiguration.OnEmbeddedH2.class)
class EmbeddedDatabaseConfiguration {

    @Bean
    SwitchingH2DataSource dataSource(Environment environment) {
        return new SwitchingH2DataSource(H2File.of(environment.getProperty("spring.datasource.url")).orElseThrow(),
                environment.getProperty("spring.datasource.username", "sa"),
                environment.getProperty("spring.datasource.password", ""));
    }

    @Bean
    RunDatabase writableDuringRuns(SwitchingH2DataSource dataSource) {
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
