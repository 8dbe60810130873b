package dev.nqueens.job;

import dev.nqueens.export.ReportExporter;
import dev.nqueens.store.SolutionStore;
import dev.nqueens.store.SolutionTables;
import dev.nqueens.store.StoredLevel;
import java.nio.file.Path;
import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The nightly job, top to bottom. The run's plan (a job parameter) says what each size needs.
 * {@code solve} stores the sizes kept row by row: one {@code solveSize} partition per size
 * (stack backtracker → symmetry reducer → JDBC batch insert); {@code count} counts the sizes kept
 * as counts only, each split into {@code countPart} sub-partitions; both run their partitions in
 * parallel on a bounded pool. {@code publish} checks and publishes each size in one transaction;
 * {@code export} writes the reports.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(NqueensProperties.class)
class NightlyJobConfiguration {

    static final String JOB_NAME = "nightly";
    static final String SOLVE_STEP = "solve";
    static final String SOLVE_SIZE_STEP = "solveSize";
    static final String COUNT_STEP = "count";
    static final String COUNT_PART_STEP = "countPart";
    static final String PUBLISH_STEP = "publish";
    static final String EXPORT_STEP = "export";

    private static final String PLAN = "#{jobParameters['" + NightlyRun.PLAN + "']}";
    private static final String SIZE = "#{stepExecutionContext['" + SolvePartitioner.SIZE_KEY + "']}";
    private static final String LEVEL = "#{stepExecutionContext['" + SolvePartitioner.LEVEL_KEY + "']}";
    private static final String TABLES = "#{stepExecutionContext['" + SolvePartitioner.TABLES_KEY + "']}";

    /** True for the partition workers of {@code solve} and {@code count} ({@code solveSize:n08}, …). */
    static boolean isWorkerStep(StepExecution step) {
        return step.getStepName().startsWith(SOLVE_SIZE_STEP + ":") || step.getStepName().startsWith(COUNT_PART_STEP + ":");
    }

    @Bean
    Job nightlyJob(JobRepository jobRepository, Step solve, Step count, Step publish, Step export) {
        return new JobBuilder(JOB_NAME, jobRepository)
                .start(solve)
                .next(count)
                .next(publish)
                .next(export)
                .build();
    }

    @Bean
    Step solve(JobRepository jobRepository, Step solveSize, SolvePartitioner solvePartitioner,
            TaskExecutor partitionTaskExecutor, NqueensProperties properties) {
        return new StepBuilder(SOLVE_STEP, jobRepository)
                .partitioner(SOLVE_SIZE_STEP, solvePartitioner)
                .step(solveSize)
                .taskExecutor(partitionTaskExecutor)
                .gridSize(properties.effectiveThreads())
                .build();
    }

    @Bean
    Step solveSize(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            SolutionReader solutionReader, ClassifyingProcessor classifyingProcessor, SolutionWriter solutionWriter,
            NqueensProperties properties) {
        return new StepBuilder(SOLVE_SIZE_STEP, jobRepository)
                .<NumberedPlacement, ClassifiedSolution>chunk(properties.chunkSize())
                .transactionManager(transactionManager)
                .reader(solutionReader)
                .processor(classifyingProcessor)
                .writer(solutionWriter)
                .build();
    }

    @Bean
    Step count(JobRepository jobRepository, Step countPart, CountPartitioner countPartitioner,
            TaskExecutor partitionTaskExecutor, NqueensProperties properties) {
        return new StepBuilder(COUNT_STEP, jobRepository)
                .partitioner(COUNT_PART_STEP, countPartitioner)
                .step(countPart)
                .taskExecutor(partitionTaskExecutor)
                .gridSize(properties.effectiveThreads())
                .build();
    }

    @Bean
    Step countPart(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            CountTasklet countTasklet, SolutionStore store, ProgressReporter progress) {
        return new StepBuilder(COUNT_PART_STEP, jobRepository)
                .tasklet(countTasklet, transactionManager)
                .listener(new StepExecutionListener() {
                    @Override
                    public org.springframework.batch.core.ExitStatus afterStep(StepExecution step) {
                        int n = step.getExecutionContext().getInt(CountPartitioner.SIZE_KEY);
                        int partitions = step.getExecutionContext().getInt(CountPartitioner.PARTITION_COUNT_KEY);
                        progress.progress(n, store.countPartitionsDone(n, partitions), partitions, "sub-partitions");
                        return step.getExitStatus();
                    }
                })
                .build();
    }

    @Bean
    Step publish(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PublishTasklet publishTasklet) {
        return new StepBuilder(PUBLISH_STEP, jobRepository)
                .tasklet(publishTasklet, transactionManager)
                .build();
    }

    @Bean
    Step export(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            ReportExporter exporter, NqueensProperties properties) {
        return new StepBuilder(EXPORT_STEP, jobRepository)
                .tasklet(new ExportTasklet(exporter, Path.of(properties.outputDir())), transactionManager)
                .build();
    }

    @Bean
    @StepScope
    SolvePartitioner solvePartitioner(@Value(PLAN) String plan) {
        return new SolvePartitioner(SizePlan.parse(plan));
    }

    @Bean
    @StepScope
    CountPartitioner countPartitioner(@Value(PLAN) String plan) {
        return new CountPartitioner(SizePlan.parse(plan));
    }

    @Bean
    @StepScope
    SolutionReader solutionReader(@Value(SIZE) int n, @Value(LEVEL) String level, @Value(TABLES) String tables,
            SolutionStore store) {
        return new SolutionReader(n, StoredLevel.valueOf(level), SolutionTables.valueOf(tables), store);
    }

    @Bean
    @StepScope
    ClassifyingProcessor classifyingProcessor(@Value(SIZE) int n) {
        return new ClassifyingProcessor(n);
    }

    @Bean
    @StepScope
    SolutionWriter solutionWriter(@Value(SIZE) int n, @Value(LEVEL) String level, @Value(TABLES) String tables,
            SolutionStore store, ProgressReporter progress, KnownCounts knownCounts) {
        return new SolutionWriter(n, StoredLevel.valueOf(level), SolutionTables.valueOf(tables), store, progress,
                knownCounts);
    }

    @Bean
    @StepScope
    CountTasklet countTasklet(@Value(SIZE) int n,
            @Value("#{stepExecutionContext['" + CountPartitioner.PARTITION_COUNT_KEY + "']}") int partitionCount,
            @Value("#{stepExecutionContext['" + CountPartitioner.PARTITION_INDEX_KEY + "']}") int partitionIndex,
            SolutionStore store) {
        return new CountTasklet(n, partitionCount, partitionIndex, store);
    }

    @Bean
    @StepScope
    PublishTasklet publishTasklet(@Value(PLAN) String plan, SolutionStore store,
            PlatformTransactionManager transactionManager, KnownCounts knownCounts) {
        return new PublishTasklet(SizePlan.parse(plan), store, knownCounts, transactionManager);
    }

    /** The published counts, read once from the jar. */
    @Bean
    KnownCounts knownCounts() {
        return KnownCounts.load();
    }

    @Bean
    ProgressReporter progressReporter(NqueensProperties properties) {
        return new ProgressReporter(System.out, properties.progressInterval());
    }

    @Bean
    TaskExecutor partitionTaskExecutor(NqueensProperties properties) {
        ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
        executor.setCorePoolSize(properties.effectiveThreads());
        executor.setMaxPoolSize(properties.effectiveThreads());
        executor.setThreadNamePrefix("partition-");
        return executor;
    }
}
