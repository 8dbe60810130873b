package dev.nqueens.job;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The operator's settings under {@code nqueens.*} (defaults in the jar's application.yml,
 * overrides in {@code config/application.yml} or on the command line).
 *
 * @param sizes the board sizes a plain {@code run} solves, e.g. {@code 1-12}
 * @param threads partitions solved at once; 0 means one per available core
 * @param chunkSize solutions stored per transaction
 * @param outputDir where the reports are exported, relative to the working directory
 */
@ConfigurationProperties("nqueens")
public record NqueensProperties(String sizes, int threads, int chunkSize, String outputDir) {

    /** The thread count with 0 resolved to the number of cores. */
    public int effectiveThreads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }
}
