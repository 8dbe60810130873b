package dev.nqueens.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nqueens.h2.H2File;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.ClassPathResource;

/**
 * The in-jar default database URL opens the embedded H2 file the way the README promises: in
 * PostgreSQL mode, kept open until the run closes it, and never compacted on close (H2 2.3.232's
 * close-time compaction can drop the newest chunks of the file, H2 issues 4086 and 4247).
 */
class DefaultDatabaseUrlIntegrationTests {

    private static String defaultUrl() {
        YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
        yaml.setResources(new ClassPathResource("application.yml"));
        Properties properties = yaml.getObject();
        return properties.getProperty("spring.datasource.url");
    }

    @Test
    void theDefaultIsTheH2FileUnderData() {
        H2File file = H2File.of(defaultUrl()).orElseThrow();
        assertThat(file.path()).isEqualTo(Path.of("data/nqueens").toAbsolutePath());
        assertThat(file.settings()).contains(";MODE=PostgreSQL", ";DB_CLOSE_ON_EXIT=FALSE");
    }

    @Test
    void aFileOpenedWithTheDefaultSettingsIsNotCompactedOnClose(@TempDir Path folder) throws Exception {
        H2File file = H2File.of(defaultUrl()).orElseThrow();
        try (Connection connection = DriverManager.getConnection(file.url(folder.resolve("nqueens")), "sa", "");
                Statement statement = connection.createStatement();
                ResultSet setting = statement.executeQuery(
                        "SELECT setting_value FROM information_schema.settings WHERE setting_name = 'MAX_COMPACT_TIME'")) {
            assertThat(setting.next()).isTrue();
            assertThat(setting.getString(1)).isEqualTo("0");
        }
    }
}
