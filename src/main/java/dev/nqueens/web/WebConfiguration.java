package dev.nqueens.web;

import java.util.Set;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * What {@code serve} adds to Boot's web and actuator set-up: the service's health leaves the
 * nightly run out; Tomcat hands encoded slashes to the application (which refuses them as file
 * names with a problem), and what Tomcat refuses itself is a problem too ({@link ProblemReportValve});
 * Tomcat's scratch folders go when serve stops ({@link TomcatScratch}).
 */
@Configuration(proxyBeanMethods = false)
@Profile(Serve.PROFILE)
class WebConfiguration {

    /**
     * Tomcat writes a response through a smaller buffer per connection by default: the largest
     * export downloads quicker with this one than with a smaller or a larger (docs/performance.md).
     * {@code server.tomcat.max-connections} bounds what the buffers take.
     */
    private static final int WRITE_BUFFER = 1 << 16;

    /**
     * {@code /actuator/health} says whether the service and its database work; a failed night is
     * the {@code nightly} group's business ({@code /actuator/health/nightly}), not a reason to take
     * the service out of a load balancer.
     */
    @Bean
    HealthEndpointGroupsPostProcessor nightlyOnlyInItsGroup() {
        return groups -> HealthEndpointGroups.of(withoutNightly(groups.getPrimary()), groupsByName(groups));
    }

    private static java.util.Map<String, HealthEndpointGroup> groupsByName(HealthEndpointGroups groups) {
        java.util.Map<String, HealthEndpointGroup> byName = new java.util.LinkedHashMap<>();
        for (String name : groups.getNames()) {
            byName.put(name, groups.get(name));
        }
        return byName;
    }

    private static HealthEndpointGroup withoutNightly(HealthEndpointGroup primary) {
        return new HealthEndpointGroup() {
            @Override
            public boolean isMember(String name) {
                return !Set.of(NightlyRunHealthIndicator.NAME).contains(name) && primary.isMember(name);
            }

            @Override
            public boolean showComponents(SecurityContext securityContext) {
                return primary.showComponents(securityContext);
            }

            @Override
            public boolean showDetails(SecurityContext securityContext) {
                return primary.showDetails(securityContext);
            }

            @Override
            public StatusAggregator getStatusAggregator() {
                return primary.getStatusAggregator();
            }

            @Override
            public HttpCodeStatusMapper getHttpCodeStatusMapper() {
                return primary.getHttpCodeStatusMapper();
            }

            @Override
            public AdditionalHealthEndpointPath getAdditionalPath() {
                return primary.getAdditionalPath();
            }
        };
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> encodedSlashesReachTheApplication() {
        return factory -> {
            factory.addConnectorCustomizers(connector -> connector.setEncodedSolidusHandling("passthrough"));
            factory.addContextCustomizers(context -> ((org.apache.catalina.core.StandardHost) context.getParent())
                    .setErrorReportValveClass(ProblemReportValve.class.getName()));
        };
    }

    @Bean
    TomcatScratch tomcatScratch() {
        return new TomcatScratch();
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> downloadsWrittenInLargeBlocks() {
        return factory -> factory.addConnectorCustomizers(
                connector -> connector.setProperty("socket.appWriteBufSize", Integer.toString(WRITE_BUFFER)));
    }
}
