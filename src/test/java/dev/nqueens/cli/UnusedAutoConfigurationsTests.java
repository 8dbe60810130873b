package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;

class UnusedAutoConfigurationsTests {

    private static final List<String> DECLARED = ImportCandidates.load(
                    AutoConfiguration.class, UnusedAutoConfigurationsTests.class.getClassLoader())
            .getCandidates();

    @Test
    void everyNameLeftOutIsAnAutoConfigurationThisBuildsBootDeclares() {
        List<String> all = new ArrayList<>(UnusedAutoConfigurations.of(false, false));
        assertThat(all).doesNotHaveDuplicates().isNotEmpty();
        assertThat(DECLARED).containsAll(all);
    }

    @Test
    void aContextLeavesOutOnlyWhatItsPartsDoNotUse() {
        assertThat(UnusedAutoConfigurations.of(true, true)).isEmpty();
        List<String> run = UnusedAutoConfigurations.of(false, false);
        assertThat(run)
                .contains(
                        "org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration",
                        "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration")
                .doesNotContain(
                        "org.springframework.boot.batch.autoconfigure.BatchAutoConfiguration",
                        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration");
        assertThat(UnusedAutoConfigurations.of(true, false))
                .doesNotContain("org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration");
    }
}
