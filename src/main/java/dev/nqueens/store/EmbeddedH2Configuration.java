package dev.nqueens.store;

import com.zaxxer.hikari.HikariDataSource;
import dev.nqueens.h2.H2File;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The configuration that picks the embedded H2 file ({@code h2}) when the configured URL names
 * one: the database of every application context is then Boot's pool, opened with the
 * owner's login ({@link H2File#username}, {@link H2File#password}: the generated password kept
 * beside the file), its connections kept for as long as the context lives (an embedded file is
 * closed with its last connection, and reopening it costs a scan of its newest chunks).
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedH2Configuration.OnEmbeddedH2.class)
public class EmbeddedH2Configuration {

    @Bean
    HikariDataSource dataSource(DataSourceProperties configured) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(H2File.of(configured.getUrl()).orElseThrow().url());
        pool.setUsername(H2File.username(configured));
        pool.setPassword(H2File.password(configured));
        pool.setPoolName("nqueens-h2");
        pool.setMaxLifetime(0);
        return pool;
    }

    /** The configured database is an embedded H2 file. */
    static final class OnEmbeddedH2 implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return Binder.get(context.getEnvironment())
                    .bind("spring.datasource", DataSourceProperties.class)
                    .map(configured -> H2File.of(configured.getUrl()).isPresent())
                    .orElse(false);
        }
    }
}
