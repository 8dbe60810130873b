package dev.nqueens.job;

import dev.nqueens.export.ReportExporter;
import dev.nqueens.settings.KnownCounts;
import dev.nqueens.settings.NqueensProperties;
import dev.nqueens.settings.StoredLevel;
import dev.nqueens.store.CountUnits;
import dev.nqueens.store.Dialect;
import dev.nqueens.store.GenerationLoader;
import dev.nqueens.store.GenerationTables;
import dev.nqueens.store.Generations;
import dev.nqueens.store.SolutionStore;
import java.io.PrintStream;
import java.nio.file.Path;
import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.listener.JobExecutionListener;
import org.springframework.batch.core.partition.Partitioner;
import org.springframework.batch.core.partition.support.SimpleStepExecutionSplitter;
import org.springframework.batch.core.partition.support.TaskExecutorPartitionHandler;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.StepInterruptionPolicy;
import org.springframework.batch.core.step.ThreadStepInterruptionPolicy;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskExecutor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The nightly job, top to bottom. The run's plan (a job parameter) says what each size needs.
 * {@code solve} stores the sizes kept row by row: one {@code solveSize} partition per size
 * (stack backtracker and symmetry reducer, a batch ahead on a thread of their own → the
 * database's bulk load: H2 batches, PostgreSQL {@code COPY}); {@code count} counts the sizes kept
 * as counts only, each dealt into {@code countPart} partitions of the counting engine's work units.
 * The partitions run where the {@link PartitionExecution} says: on a local thread pool, or on the
 * workers of a cluster. While they run, the {@link PartitionMonitor} publishes each size as soon
 * as it is complete; {@code publish} publishes the rest, {@code export} writes the reports. When
 * the run's time window closes, partitions stop at their next chunk or work unit (STOPPED), and
 * the job with them.
 */
@Configuration(proxyBeanMethods = false)
public class NightlyJobConfiguration {

    static final String JOB_NAME = "nightly";
    /** The name of the stream a command prints to, when one is given to the context. */
    public static final String CONSOLE = "console";

    static final String SOLVE_STEP = "solve";
    static final String SOLVE_SIZE_STEP = "solveSize";
    static final String COUNT_STEP = "count";
    static final String COUNT_PART_STEP = "countPart";
    static final String PUBLISH_STEP = "publish";
    static final String EXPORT_STEP = "export";

    private static final String PLAN = "#{jobParameters['" + RunParameters.PLAN + "']}";
    private static final String SIZE = "#{stepExecutionContext['" + SolvePartitioner.SIZE_KEY + "']}";
    private static final String LEVEL = "#{stepExecutionContext['" + SolvePartitioner.LEVEL_KEY + "']}";

    @Bean
    Job nightlyJob(
            JobRepository jobRepository, Step solve, Step count, Step publish, Step export, RunControl runControl) {
        return new JobBuilder(JOB_NAME, jobRepository)
                .listener(new JobExecutionListener() {
                    @Override
                    public void beforeJob(JobExecution execution) {
                        runControl.begin(execution);
                    }
                })
                .start(solve)
                .next(count)
                .next(publish)
                .next(export)
                .build();
    }

    @Bean
    Step solve(
            JobRepository jobRepository,
            Step solveSize,
            SolvePartitioner solvePartitioner,
            PartitionExecution partitionExecution,
            PartitionMonitor partitionMonitor,
            RunControl runControl) {
        return partitioned(
                SOLVE_STEP,
                SOLVE_SIZE_STEP,
                solveSize,
                solvePartitioner,
                false,
                jobRepository,
                partitionExecution,
                partitionMonitor,
                runControl);
    }

    @Bean
    Step solveSize(
            JobRepository jobRepository,
            PlatformTransactionManager transactionManager,
            SolutionReader solutionReader,
            SolutionWriter solutionWriter,
            NqueensProperties properties,
            RunControl runControl,
            GenerationTables tables) {
        return new StepBuilder(SOLVE_SIZE_STEP, jobRepository)
                .<SolutionSource.Item, SolutionSource.Item>chunk(chunkSize(properties, tables.dialect()))
                .transactionManager(transactionManager)
                .reader(solutionReader)
                .writer(solutionWriter)
                .interruptionPolicy(stopWhenTheWindowCloses(runControl))
                .listener(new LostDatabase.ExitCodeListener())
                .build();
    }

    /** H2's chunks when the size is the database's choice ({@code nqueens.chunk-size: 0}). */
    static final int H2_CHUNK = 2_000;
    /** PostgreSQL's chunks when the size is the database's choice. */
    static final int POSTGRESQL_CHUNK = 10_000;

    /**
     * The rows stored per transaction: as set, or the database's choice. H2 rewrites the pages a
     * transaction touches when it commits, and keeps the old ones until then: small chunks keep its
     * file near its data (docs/h2.md). PostgreSQL's COPY and commit cost little per chunk, and
     * larger chunks mean fewer commits, and a quicker store (docs/performance.md).
     */
    static int chunkSize(NqueensProperties properties, Dialect dialect) {
        if (properties.chunkSize() > 0) {
            return properties.chunkSize();
        }
        return dialect == Dialect.POSTGRESQL ? POSTGRESQL_CHUNK : H2_CHUNK;
    }

    /**
     * The counting step (and each of its partitions) runs again when a run is restarted, even after
     * it completed, if it has units left to count: those whose two counts disagreed and were
     * dropped (see {@link SizePublisher}). The partitioner hands out only partitions with units left.
     */
    @Bean
    Step count(
            JobRepository jobRepository,
            Step countPart,
            CountPartitioner countPartitioner,
            PartitionExecution partitionExecution,
            PartitionMonitor partitionMonitor,
            RunControl runControl) {
        return partitioned(
                COUNT_STEP,
                COUNT_PART_STEP,
                countPart,
                countPartitioner,
                true,
                jobRepository,
                partitionExecution,
                partitionMonitor,
                runControl);
    }

    @Bean
    Step countPart(
            JobRepository jobRepository, PlatformTransactionManager transactionManager, CountTasklet countTasklet) {
        return new StepBuilder(COUNT_PART_STEP, jobRepository)
                .tasklet(countTasklet, transactionManager)
                .listener(new LostDatabase.ExitCodeListener())
                .build();
    }

    private static Step partitioned(
            String name,
            String workerName,
            Step worker,
            Partitioner partitioner,
            boolean rerunWhenComplete,
            JobRepository jobRepository,
            PartitionExecution partitionExecution,
            PartitionMonitor partitionMonitor,
            RunControl runControl) {
        SimpleStepExecutionSplitter splitter = new SimpleStepExecutionSplitter(jobRepository, workerName, partitioner);
        splitter.setAllowStartIfComplete(rerunWhenComplete);
        return new StepBuilder(name, jobRepository)
                .partitioner(workerName, partitioner)
                .splitter(new OrderedSplitter(splitter, runControl))
                .partitionHandler(partitionExecution.handler(workerName, worker))
                .listener(partitionMonitor)
                .allowStartIfComplete(rerunWhenComplete)
                .build();
    }

    @Bean
    Step publish(
            JobRepository jobRepository, PlatformTransactionManager transactionManager, PublishTasklet publishTasklet) {
        return new StepBuilder(PUBLISH_STEP, jobRepository)
                .tasklet(publishTasklet, transactionManager)
                .build();
    }

    @Bean
    Step export(
            JobRepository jobRepository,
            PlatformTransactionManager transactionManager,
            ReportExporter exporter,
            NqueensProperties properties,
            ProgressReporter progress) {
        return new StepBuilder(EXPORT_STEP, jobRepository)
                .tasklet(new ExportTasklet(exporter, Path.of(properties.outputDir()), progress), transactionManager)
                .build();
    }

    @Bean
    @StepScope
    SolvePartitioner solvePartitioner(@Value(PLAN) String plan) {
        return new SolvePartitioner(SizePlan.parse(plan));
    }

    @Bean
    @StepScope
    CountPartitioner countPartitioner(@Value(PLAN) String plan, CountUnits countUnits) {
        return new CountPartitioner(SizePlan.parse(plan), countUnits);
    }

    @Bean
    @StepScope
    SolutionReader solutionReader(
            @Value(SIZE) int n,
            @Value(LEVEL) String level,
            Generations generations,
            SolutionStore store,
            KnownCounts knownCounts) {
        long expectedClasses =
                knownCounts.of(n).map(KnownCounts.Known::fundamentalSolutions).orElse(0L);
        return new SolutionReader(n, StoredLevel.valueOf(level), expectedClasses, generations, store);
    }

    @Bean
    @StepScope
    SolutionWriter solutionWriter(
            @Value(SIZE) int n,
            @Value(LEVEL) String level,
            @Value("#{stepExecution}") StepExecution partition,
            Generations generations,
            SolutionStore store,
            GenerationLoader loader,
            PartitionGuard partitionGuard) {
        return new SolutionWriter(n, StoredLevel.valueOf(level), generations, store, loader, partitionGuard, partition);
    }

    @Bean
    @StepScope
    CountTasklet countTasklet(
            @Value("#{stepExecution}") StepExecution partition,
            CountUnits countUnits,
            PartitionGuard partitionGuard,
            RunControl runControl) {
        return new CountTasklet(
                CountPartition.of(partition.getExecutionContext()), countUnits, partitionGuard, runControl);
    }

    @Bean
    @StepScope
    PublishTasklet publishTasklet(@Value(PLAN) String plan, SizePublisher publisher) {
        return new PublishTasklet(SizePlan.parse(plan), publisher);
    }

    @Bean
    PartitionMonitor partitionMonitor(
            SizePublisher publisher,
            WorkProgress workProgress,
            ProgressReporter progress,
            RunControl runControl,
            JdbcTemplate jdbc) {
        return new PartitionMonitor(publisher, workProgress, progress, runControl, jdbc);
    }

    /** The published counts, read once from the jar. */
    @Bean
    KnownCounts knownCounts() {
        return KnownCounts.load();
    }

    /** Progress goes where the command prints ({@code console}, when the command line started the context). */
    @Bean
    ProgressReporter progressReporter(
            NqueensProperties properties,
            @org.springframework.beans.factory.annotation.Qualifier(CONSOLE) ObjectProvider<PrintStream> console) {
        return new ProgressReporter(console.getIfAvailable(() -> System.out), properties.progressInterval());
    }

    /**
     * A partition stops at its next chunk once the run's time window has closed, as it does when
     * the job is stopped: STOPPED, to be resumed by the next run.
     */
    private static StepInterruptionPolicy stopWhenTheWindowCloses(RunControl runControl) {
        ThreadStepInterruptionPolicy interrupted = new ThreadStepInterruptionPolicy();
        return partition -> {
            interrupted.checkInterrupted(partition);
            if (runControl.windowClosed(partition.getJobExecutionId())) {
                partition.setTerminateOnly();
                throw new JobInterruptedException("the run's time window closed");
            }
        };
    }

    /** Without a cluster, partitions run on this process's pool of {@code nqueens.threads} threads. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "nqueens.cluster.enabled", havingValue = "false", matchIfMissing = true)
    static class LocalPartitions {

        @Bean
        TaskExecutor partitionTaskExecutor(NqueensProperties properties) {
            ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
            executor.setCorePoolSize(properties.effectiveThreads());
            executor.setMaxPoolSize(properties.effectiveThreads());
            executor.setThreadNamePrefix("partition-");
            executor.initialize();
            return executor;
        }

        @Bean
        PartitionExecution partitionExecution(TaskExecutor partitionTaskExecutor, NqueensProperties properties) {
            return new PartitionExecution() {
                @Override
                public org.springframework.batch.core.partition.PartitionHandler handler(
                        String workerStepName, Step workerStep) {
                    TaskExecutorPartitionHandler handler = new TaskExecutorPartitionHandler();
                    handler.setStep(workerStep);
                    handler.setTaskExecutor(partitionTaskExecutor);
                    handler.setGridSize(properties.effectiveThreads());
                    return handler;
                }

                @Override
                public int capacity() {
                    return properties.effectiveThreads();
                }

                @Override
                public int replicas(int n, boolean published) {
                    return 1;
                }
            };
        }

        @Bean
        PartitionGuard partitionGuard(RunLock runLock) {
            return new LockedPartitions(runLock);
        }
    }
}
