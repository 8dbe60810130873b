package dev.nqueens.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The auto-configurations a command's context leaves out ({@code spring.autoconfigure.exclude}),
 * listed by name for each part a command may not need, so that Boot neither loads nor evaluates
 * them: the web server, its pages, health and metrics outside {@code serve}, and the RabbitMQ client
 * outside cluster mode. (Every context runs the job.) A test checks that every name
 * is one this build's Boot declares.
 */
final class UnusedAutoConfigurations {

    /** Only {@code serve} uses these. */
    static final List<String> WEB = List.of(
            "org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration",
            "org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration",
            "org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration",
            "org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration",
            "org.springframework.boot.health.autoconfigure.application.DiskSpaceHealthContributorAutoConfiguration",
            "org.springframework.boot.health.autoconfigure.application.SslHealthContributorAutoConfiguration",
            "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration",
            "org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration",
            "org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration",
            "org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration",
            "org.springframework.boot.webmvc.autoconfigure.WebMvcObservationAutoConfiguration",
            "org.springframework.boot.webmvc.autoconfigure.actuate.endpoint.web.WebMvcHealthEndpointExtensionAutoConfiguration",
            "org.springframework.boot.webmvc.autoconfigure.actuate.web.mappings.WebMvcMappingsAutoConfiguration",
            "org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.audit.AuditAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.audit.AuditEventsEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.beans.BeansEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.condition.ConditionsReportEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.context.ShutdownEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.context.properties.ConfigurationPropertiesReportEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.endpoint.jmx.JmxEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.info.InfoContributorAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.info.InfoEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.logging.LogFileWebEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.logging.LoggersEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.management.HeapDumpWebEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.management.ThreadDumpEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.sbom.SbomEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.scheduling.ScheduledTasksEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.startup.StartupEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.web.exchanges.HttpExchangesEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.web.mappings.MappingsEndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextAutoConfiguration",
            "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
            "org.springframework.boot.micrometer.observation.autoconfigure.ScheduledTasksObservationAutoConfiguration",
            "org.springframework.boot.thymeleaf.autoconfigure.ThymeleafAutoConfiguration",
            "org.springframework.boot.jdbc.autoconfigure.health.DataSourceHealthContributorAutoConfiguration",
            "org.springframework.boot.tomcat.autoconfigure.actuate.web.server.TomcatReactiveManagementContextAutoConfiguration",
            "org.springframework.boot.tomcat.autoconfigure.actuate.web.server.TomcatServletManagementContextAutoConfiguration",
            "org.springframework.boot.tomcat.autoconfigure.metrics.TomcatMetricsAutoConfiguration",
            "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration",
            "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsEndpointAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.jvm.JvmMetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.ssl.SslMetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.startup.StartupTimeMetricsListenerAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.system.SystemMetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.task.TaskExecutorMetricsAutoConfiguration",
            "org.springframework.boot.servlet.autoconfigure.HttpEncodingAutoConfiguration",
            "org.springframework.boot.servlet.autoconfigure.MultipartAutoConfiguration",
            "org.springframework.boot.servlet.autoconfigure.actuate.web.ServletManagementContextAutoConfiguration",
            "org.springframework.boot.servlet.autoconfigure.actuate.web.exchanges.ServletHttpExchangesAutoConfiguration",
            "org.springframework.boot.servlet.autoconfigure.actuate.web.mappings.ServletMappingsAutoConfiguration");

    /** Only cluster mode uses these. */
    static final List<String> CLUSTER = List.of(
            "org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration",
            "org.springframework.boot.amqp.autoconfigure.health.RabbitHealthContributorAutoConfiguration",
            "org.springframework.boot.amqp.autoconfigure.metrics.RabbitMetricsAutoConfiguration");

    private UnusedAutoConfigurations() {}

    /** The auto-configurations a context with these parts leaves out. */
    static List<String> of(boolean web, boolean cluster) {
        List<String> unused = new ArrayList<>();
        if (!web) {
            unused.addAll(WEB);
        }
        if (!cluster) {
            unused.addAll(CLUSTER);
        }
        return unused;
    }
}
