package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** When serve's prepared context fits a start: the settings its conditions read, compared as Boot binds them. */
class PreparedContextTests {

    private static final Properties BUILT = new Properties();

    static {
        BUILT.setProperty("(active profiles)", "serve");
        BUILT.setProperty("management.endpoints.web.exposure.include", "=health,prometheus");
        BUILT.setProperty("spring.jmx.enabled", "");
    }

    @Test
    void theBuildsSettingsFitWhateverElseIsSet() {
        StandardEnvironment environment = environment(Map.of("management.endpoints.web.exposure.include",
                "health,prometheus", "nqueens.sizes", "1-12", "server.port", "9000"), Map.of());
        assertThat(PreparedContext.misfit(environment, BUILT)).isEmpty();
    }

    @Test
    void aChangedSettingIsNamedWithBothValuesFromAFileOrAVariable() {
        assertThat(PreparedContext.misfit(environment(Map.of("management.endpoints.web.exposure.include", "*"),
                Map.of()), BUILT)).contains("setting management.endpoints.web.exposure.include is '*', the build's"
                        + " 'health,prometheus'");
        // A variable counts as Boot binds it: SPRING_JMX_ENABLED is spring.jmx.enabled.
        assertThat(PreparedContext.misfit(environment(Map.of("management.endpoints.web.exposure.include",
                "health,prometheus"), Map.of("SPRING_JMX_ENABLED", "true")), BUILT))
                .contains("setting spring.jmx.enabled is 'true', the build's unset");
        assertThat(PreparedContext.misfit(environment(Map.of(), Map.of()), BUILT))
                .contains("setting management.endpoints.web.exposure.include is unset, the build's 'health,prometheus'");
    }

    @Test
    void otherProfilesOrACloudPlatformDoNotFit() {
        StandardEnvironment profiles = environment(Map.of("management.endpoints.web.exposure.include",
                "health,prometheus"), Map.of());
        profiles.setActiveProfiles("serve", "extra");
        assertThat(PreparedContext.misfit(profiles, BUILT)).contains("the active profiles are serve,extra, the build's serve");
        assertThat(PreparedContext.misfit(environment(Map.of("management.endpoints.web.exposure.include",
                "health,prometheus"), Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1", "KUBERNETES_SERVICE_PORT", "443")),
                BUILT)).contains("a cloud platform is detected");
    }

    private static StandardEnvironment environment(Map<String, Object> file, Map<String, Object> variables) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        environment.getPropertySources().addLast(new MapPropertySource("file", file));
        environment.setActiveProfiles("serve");
        return environment;
    }
}
