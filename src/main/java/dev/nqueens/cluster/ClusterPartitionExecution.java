package dev.nqueens.cluster;

import dev.nqueens.job.PartitionExecution;
import dev.nqueens.job.ProgressReporter;
import dev.nqueens.job.RunLock;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.batch.core.partition.PartitionHandler;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.integration.core.MessagingTemplate;

/**
 * Partitions run on the cluster's workers: each manager step gets a {@link ClusterPartitionHandler};
 * the capacity is the threads of the workers alive when a size is planned; sizes without published
 * values (or all, with {@code nqueens.cluster.cross-check: all}) are counted twice.
 */
final class ClusterPartitionExecution implements PartitionExecution {

    private final MessagingTemplate messaging;
    private final JobRepository jobRepository;
    private final ClusterRecords records;
    private final RabbitAdmin rabbitAdmin;
    private final ClusterConfiguration.ClusterSettings settings;
    private final RunLock runLock;
    private final ProgressReporter console;

    ClusterPartitionExecution(
            MessagingTemplate messaging,
            JobRepository jobRepository,
            ClusterRecords records,
            RabbitAdmin rabbitAdmin,
            ClusterConfiguration.ClusterSettings settings,
            RunLock runLock,
            ProgressReporter console) {
        this.runLock = runLock;
        this.console = console;
        this.messaging = messaging;
        this.jobRepository = jobRepository;
        this.records = records;
        this.rabbitAdmin = rabbitAdmin;
        this.settings = settings;
    }

    @Override
    public PartitionHandler handler(String workerStepName, Step workerStep) {
        return new ClusterPartitionHandler(
                workerStepName, messaging, jobRepository, records, rabbitAdmin, settings, runLock, console);
    }

    @Override
    public int capacity() {
        return Math.max(1, records.liveThreads(settings.workerTimeout()));
    }

    @Override
    public int replicas(int n, boolean published) {
        return settings.cluster().crossChecks(published) ? 2 : 1;
    }

    @Override
    public void recall(long jobExecutionId) {
        records.expireLeases(jobExecutionId);
    }
}
