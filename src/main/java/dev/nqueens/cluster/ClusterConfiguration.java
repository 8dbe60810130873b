package dev.nqueens.cluster;

import dev.nqueens.job.ProgressReporter;
import dev.nqueens.job.RunLock;
import dev.nqueens.job.ThisProcess;
import dev.nqueens.settings.NqueensProperties;
import java.time.Duration;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.integration.partition.BeanFactoryStepLocator;
import org.springframework.batch.integration.partition.StepExecutionRequestHandler;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.amqp.outbound.AmqpOutboundEndpoint;
import org.springframework.integration.annotation.ServiceActivator;
import org.springframework.integration.channel.DirectChannel;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.core.MessagingTemplate;
import org.springframework.messaging.MessageHandler;

/**
 * Cluster mode ({@code nqueens.cluster.enabled}): the manager sends Spring Batch's partition
 * requests through a direct channel to RabbitMQ's durable queue ({@code nqueens.cluster.queue})
 * and learns their outcome by polling the shared job repository (no step execution travels, no
 * reply queue); workers take requests from the queue one per free thread and execute them with
 * Spring Batch's {@link StepExecutionRequestHandler}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "nqueens.cluster.enabled", havingValue = "true")
@EnableIntegration
class ClusterConfiguration {

    static final String REQUESTS = "partitionRequests";

    @Bean
    ClusterSettings clusterSettings(NqueensProperties properties) {
        NqueensProperties.Cluster cluster = properties.cluster();
        return new ClusterSettings(
                cluster.queue(), cluster.workerTimeout(), cluster, ThisProcess.id(), properties.outageWait());
    }

    @Bean
    Queue partitionQueue(ClusterSettings settings) {
        return new Queue(settings.queue(), true);
    }

    @Bean
    RabbitAdmin rabbitAdmin(ConnectionFactory connectionFactory) {
        return new RabbitAdmin(connectionFactory);
    }

    @Bean
    RabbitTemplate partitionTemplate(ConnectionFactory connectionFactory, ClusterSettings settings) {
        RabbitTemplate template = new RabbitTemplate(connectionFactory);
        template.setMessageConverter(new StepRequestConverter());
        template.setRoutingKey(settings.queue());
        return template;
    }

    @Bean(name = REQUESTS)
    DirectChannel partitionRequests() {
        return new DirectChannel();
    }

    /** Spring Integration's AMQP outbound adapter: every request on the channel goes to the queue. */
    @Bean
    @ServiceActivator(inputChannel = REQUESTS)
    MessageHandler amqpOutbound(RabbitTemplate partitionTemplate, ClusterSettings settings) {
        AmqpOutboundEndpoint endpoint = new AmqpOutboundEndpoint(partitionTemplate);
        endpoint.setRoutingKey(settings.queue());
        return endpoint;
    }

    @Bean
    MessagingTemplate partitionMessaging(DirectChannel partitionRequests) {
        MessagingTemplate template = new MessagingTemplate();
        template.setDefaultChannel(partitionRequests);
        return template;
    }

    @Bean
    ClusterPartitionExecution partitionExecution(
            MessagingTemplate partitionMessaging,
            JobRepository jobRepository,
            ClusterRecords records,
            RabbitAdmin rabbitAdmin,
            ClusterSettings settings,
            RunLock runLock,
            ProgressReporter console) {
        return new ClusterPartitionExecution(
                partitionMessaging, jobRepository, records, rabbitAdmin, settings, runLock, console);
    }

    @Bean
    WorkerGuard partitionGuard(ClusterRecords records, ClusterSettings settings) {
        return new WorkerGuard(records, settings);
    }

    @Bean
    StepExecutionRequestHandler stepExecutionRequestHandler(JobRepository jobRepository, BeanFactory beanFactory) {
        BeanFactoryStepLocator steps = new BeanFactoryStepLocator();
        steps.setBeanFactory(beanFactory);
        StepExecutionRequestHandler handler = new StepExecutionRequestHandler();
        handler.setJobRepository(jobRepository);
        handler.setStepLocator(steps);
        return handler;
    }

    /**
     * The settings every cluster component reads.
     *
     * @param queue the queue of partition requests
     * @param workerTimeout how long a worker or manager may be silent before it is taken for dead;
     *     also the length of a lease
     * @param cluster the settings as configured
     * @param processId this process, {@code host:pid}
     * @param outageWait how long a manager or worker waits for the broker or the database to come back
     */
    record ClusterSettings(
            String queue,
            Duration workerTimeout,
            NqueensProperties.Cluster cluster,
            String processId,
            Duration outageWait) {

        /** How often a worker renews its heartbeat and leases, and the manager looks after its partitions. */
        Duration heartbeat() {
            return workerTimeout.dividedBy(4);
        }
    }
}
