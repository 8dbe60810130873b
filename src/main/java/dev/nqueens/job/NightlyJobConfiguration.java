package dev.nqueens.job;

import dev.nqueens.export.ReportExporter;
import dev.nqueens.store.SolutionStore;
import java.nio.file.Path;
import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
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
 * The nightly job, top to bottom: {@code solve} partitions the requested board sizes into one
 * {@code solveSize} worker step each (stack backtracker → symmetry reducer → JDBC batch insert),
 * run in parallel on a bounded pool; {@code summarize} checks and records the counts;
 * {@code export} writes the reports.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(NqueensProperties.class)
class NightlyJobConfiguration {

    static final String JOB_NAME = "nightly";
    static final String SOLVE_STEP = "solve";
    static final String SOLVE_SIZE_STEP = "solveSize";
    static final String SUMMARIZE_STEP = "summarize";
    static final String EXPORT_STEP = "export";

    /** Job parameter: the board sizes of the run, in {@link BoardSizes} form. */
    static final String SIZES_PARAMETER = "sizes";

    /** True for the worker steps of {@code solve}, named {@code solveSize:nNN} by the partition handler. */
    static boolean isSolveSizeStep(StepExecution step) {
        return step.getStepName().startsWith(SOLVE_SIZE_STEP + ":");
    }

    @Bean
    Job nightlyJob(JobRepository jobRepository, Step solve, Step summarize, Step export) {
        return new JobBuilder(JOB_NAME, jobRepository)
                .start(solve)
                .next(summarize)
                .next(export)
                .build();
    }

    @Bean
    Step solve(JobRepository jobRepository, Step solveSize, SizePartitioner sizePartitioner,
            TaskExecutor solveTaskExecutor, NqueensProperties properties) {
        return new StepBuilder(SOLVE_STEP, jobRepository)
                .partitioner(SOLVE_SIZE_STEP, sizePartitioner)
                .step(solveSize)
                .taskExecutor(solveTaskExecutor)
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
    Step summarize(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            SolutionStore store) {
        return new StepBuilder(SUMMARIZE_STEP, jobRepository)
                .tasklet(new SummaryTasklet(store, KnownCounts.load()), transactionManager)
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
    SizePartitioner sizePartitioner(@Value("#{jobParameters['" + SIZES_PARAMETER + "']}") String sizes,
            SolutionStore store) {
        return new SizePartitioner(BoardSizes.parse(sizes), store);
    }

    @Bean
    @StepScope
    SolutionReader solutionReader(@Value("#{stepExecutionContext['" + SizePartitioner.SIZE_KEY + "']}") int n,
            SolutionStore store) {
        return new SolutionReader(n, store);
    }

    @Bean
    @StepScope
    ClassifyingProcessor classifyingProcessor(
            @Value("#{stepExecutionContext['" + SizePartitioner.SIZE_KEY + "']}") int n) {
        return new ClassifyingProcessor(n);
    }

    @Bean
    @StepScope
    SolutionWriter solutionWriter(@Value("#{stepExecutionContext['" + SizePartitioner.SIZE_KEY + "']}") int n,
            SolutionStore store) {
        return new SolutionWriter(n, store);
    }

    @Bean
    TaskExecutor solveTaskExecutor(NqueensProperties properties) {
        ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
        executor.setCorePoolSize(properties.effectiveThreads());
        executor.setMaxPoolSize(properties.effectiveThreads());
        executor.setThreadNamePrefix("solve-");
        executor.setWaitForTasksToCompleteOnShutdown(false);
        return executor;
    }
}
