package dev.nqueens;

import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.SettingsLoader;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The application context of the commands that need the job or the web ({@code run},
 * {@code schedule}, {@code serve}, {@code worker}), started by {@code cli.Launch} with what the
 * command declares. Its settings are bound the one way every command binds them.
 */
@SpringBootApplication
public class Application {

    @Bean
    NqueensProperties nqueensProperties(Environment environment) {
        return SettingsLoader.bind(environment);
    }
}
