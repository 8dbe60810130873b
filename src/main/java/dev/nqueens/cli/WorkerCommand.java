package dev.nqueens.cli;

import dev.nqueens.cluster.BrokerCheck;
import dev.nqueens.cluster.PartitionWorker;
import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.Failure;
import dev.nqueens.failure.UnavailableException;
import dev.nqueens.job.LostDatabase;
import dev.nqueens.settings.Durations;
import dev.nqueens.store.SchemaCheck;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryListener;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryState;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.core.retry.Retryable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code worker}: executes the partitions a cluster's manager sends through the broker. Started
 * before what it needs is there — the broker, the database, or a schema as new as its build (the
 * manager's first run creates it) — it waits for it, with back-off, up to
 * {@code nqueens.cluster.startup-wait}, saying once what it waits for; a refused login, a schema
 * newer than its build and bad settings end it at once.
 */
@Command(
        name = "worker",
        header = "Cluster mode: execute partitions sent through the broker.",
        description = "Takes partitions of the nightly job from the broker and executes them against the shared"
                + " PostgreSQL database, until SIGTERM (which hands back what is running and exits 0). Started"
                + " before the broker, the database or its schema is there, it waits for them (setting"
                + " nqueens.cluster.startup-wait, ${bundle:default.nqueens.cluster.startup-wait}).",
        footerHeading = "%nExample:%n",
        footer = "  ./nqueens worker --threads 16")
final class WorkerCommand extends Subcommand {

    /** The job's steps, in cluster mode, writing rows to a database some manager migrated. */
    static final Needs NEEDS = Needs.of(Needs.Database.WRITE, Needs.Part.JOB, Needs.Part.CLUSTER);

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    @Option(
            names = "--threads",
            paramLabel = "T",
            converter = Options.Positive.class,
            description =
                    "Partitions executed at once, 1 or more (default: setting nqueens.threads, ${bundle:default.nqueens.threads}; 0 = one per core).")
    Integer threads;

    @Override
    public Integer call() {
        Map<String, String> options = threads == null ? Map.of() : Map.of("nqueens.threads", threads.toString());
        Duration startupWait;
        try (Session settings = nqueens.launch().open(Needs.NOTHING, options)) {
            startupWait = settings.settings().cluster().startupWait();
        }
        try (Session session = openWhenReady(options, startupWait)) {
            PartitionWorker worker = session.bean(PartitionWorker.class);
            // A worker told to stop has handed back what it held: that is its normal end, exit 0.
            session.onStop(worker::stop, ExitCode.OK);
            return worker.run(
                    session.settings().effectiveThreads(),
                    Version.text(),
                    session.console().out(),
                    session.console().err());
        }
    }

    /**
     * Starts the worker once the broker, the database and the schema are there, trying again with
     * back-off (Spring's {@link RetryTemplate}) for up to {@code wait}.
     *
     * @throws UnavailableException if they are not there in time
     */
    private Session openWhenReady(Map<String, String> options, Duration wait) {
        if (wait.isZero()) {
            return nqueens.launch().open(NEEDS, options);
        }
        RetryTemplate retry = new RetryTemplate(RetryPolicy.builder()
                .predicate(failure -> waitingFor(failure).isPresent())
                .maxRetries(Integer.MAX_VALUE)
                .delay(Duration.ofMillis(500))
                .multiplier(2)
                .maxDelay(Duration.ofSeconds(5))
                .timeout(wait)
                .build());
        AtomicReference<String> saidFor = new AtomicReference<>();
        retry.setRetryListener(new RetryListener() {
            @Override
            public void onRetryableExecution(RetryPolicy policy, Retryable<?> retryable, RetryState state) {
                if (!state.isSuccessful()) {
                    Throwable failure = state.getLastException();
                    waitingFor(failure)
                            .filter(what -> !what.equals(saidFor.getAndSet(what)))
                            .ifPresent(what -> nqueens.launch()
                                    .console()
                                    .out()
                                    .printf(
                                            "%s waiting for %s: %s%n",
                                            TIME.format(LocalDateTime.now()), what, Failure.rootMessage(failure)));
                }
            }
        });
        try {
            return retry.execute(() -> nqueens.launch().open(NEEDS, options));
        } catch (RetryException e) {
            Throwable failure = e.getLastException() == null ? e.getCause() : e.getLastException();
            Optional<String> what = waitingFor(failure);
            if (what.isPresent()) {
                throw new UnavailableException(
                        "gave up after " + Durations.format(wait.toSeconds()) + " waiting for " + what.get() + ": "
                                + Failure.rootMessage(failure),
                        failure);
            }
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(failure);
        }
    }

    /** What a failed start waits for: the schema, the broker or the database; empty if waiting does not mend it. */
    private static Optional<String> waitingFor(Throwable failure) {
        Optional<SchemaCheck.SchemaMismatchException> schema = Failure.causes(failure)
                .filter(SchemaCheck.SchemaMismatchException.class::isInstance)
                .map(SchemaCheck.SchemaMismatchException.class::cast)
                .findFirst();
        if (schema.isPresent()) {
            return schema.get().behind() ? Optional.of("the schema") : Optional.empty();
        }
        if (BrokerCheck.isUnreachable(failure)) {
            return Optional.of("the broker");
        }
        if (LostDatabase.isCause(failure)) {
            return Optional.of("the database");
        }
        return Optional.empty();
    }
}
