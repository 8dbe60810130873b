package dev.nqueens;

import dev.nqueens.h2.EmbeddedH2Configuration;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.SettingsLoader;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * The application context of {@code serve}: the web server, its pages and API over the stored
 * results, and what they read — without the job, whose machinery {@code serve} starts only for the
 * nights its schedule runs ({@link Application}), so that the pages answer within seconds.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@ComponentScan({"dev.nqueens.web", "dev.nqueens.store", "dev.nqueens.query", "dev.nqueens.export"})
@Import(EmbeddedH2Configuration.class)
public class WebApplication {

    @Bean
    NqueensProperties nqueensProperties(Environment environment) {
        return SettingsLoader.bind(environment);
    }
}
