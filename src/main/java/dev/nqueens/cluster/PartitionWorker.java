package dev.nqueens.cluster;

import dev.nqueens.cluster.RequestCheck.Decision;
import dev.nqueens.cluster.RequestCheck.Verdict;
import dev.nqueens.failure.ExitCode;
import dev.nqueens.failure.Failure;
import dev.nqueens.job.LostDatabase;
import dev.nqueens.job.Outage;
import dev.nqueens.job.PartitionGuard;
import dev.nqueens.job.RunControl;
import dev.nqueens.job.ThisProcess;
import dev.nqueens.settings.Durations;
import dev.nqueens.store.CountUnits;
import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.integration.partition.StepExecutionRequestHandler;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * {@code ./nqueens worker}: takes the nightly job's partition requests from the queue and executes
 * them with Spring Batch's {@link StepExecutionRequestHandler}, {@code threads} at a time.
 *
 * <p>A thread takes a request only when it is free, and only once it has checked and claimed it
 * ({@link RequestQueue}). A heartbeat renews the worker's record and its leases. SIGTERM: no new
 * requests are taken, the partitions in progress are handed back (their leases released at once,
 * so the manager sends them again and another worker goes on from what they recorded), and the
 * process exits 0.
 *
 * <p>When the database or the broker goes away, the worker says so once, and once more when it is
 * back, and waits for it up to {@code nqueens.outage-wait}; then it stops (exit 4). A partition that
 * failed because the database went away is run again by its manager, from its last commit.
 */
@Component
@ConditionalOnProperty(name = "nqueens.cluster.enabled", havingValue = "true")
public class PartitionWorker {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final Duration IDLE_POLL = Duration.ofMillis(500);
    private static final Duration PASS_ON_PAUSE = Duration.ofSeconds(2);

    private final RabbitTemplate partitionTemplate;
    private final RequestQueue queue;
    private final JobRepository jobRepository;
    private final StepExecutionRequestHandler handler;
    private final ClusterRecords records;
    private final WorkerGuard guard;
    private final ClusterConfiguration.ClusterSettings settings;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final AtomicReference<String> refusal = new AtomicReference<>();
    private final AtomicReference<String> gaveUp = new AtomicReference<>();
    private final AtomicReference<String> lastTrouble = new AtomicReference<>();
    private Outage database;
    private Outage broker;
    /** The partitions being executed here: step execution id → attempt id. */
    private final Map<Long, Long> running = new ConcurrentHashMap<>();

    private volatile boolean stopping;
    private PrintStream out;

    PartitionWorker(
            RabbitTemplate partitionTemplate,
            JobRepository jobRepository,
            StepExecutionRequestHandler handler,
            ClusterRecords records,
            WorkerGuard guard,
            RunControl runControl,
            CountUnits countUnits,
            ClusterConfiguration.ClusterSettings settings) {
        this.partitionTemplate = partitionTemplate;
        this.jobRepository = jobRepository;
        this.handler = handler;
        this.records = records;
        this.guard = guard;
        this.queue = new RequestQueue(
                partitionTemplate,
                new RequestCheck(jobRepository, records, runControl, countUnits, settings),
                records,
                settings,
                line -> log("%s", line));
        this.settings = settings;
    }

    /**
     * Works until {@link #stop()}; returns 0, 1 if this worker refused to take part (another
     * version of the engine), or 4 if the database or the broker stayed away longer than
     * {@code nqueens.outage-wait}. Partitions still running when stopped are handed back and the
     * process is halted with 0 at once, so that none of them writes again.
     */
    public int run(int threads, String version, PrintStream out, PrintStream err) {
        this.out = out;
        this.database = new Outage("the database", line -> log("%s", line));
        this.broker = new Outage("the broker", line -> log("%s", line));
        partitionTemplate.execute(channel -> channel.queueDeclarePassive(settings.queue()));
        records.register(settings.processId(), ThisProcess.host(), ThisProcess.pid(), threads, version);
        ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(daemon("nqueens-heartbeat"));
        heartbeat.scheduleWithFixedDelay(this::beat, 0, settings.heartbeat().toMillis(), TimeUnit.MILLISECONDS);
        log("worker %s started: %d thread(s), queue %s, %s", settings.processId(), threads, settings.queue(), version);
        for (int t = 1; t <= threads; t++) {
            Thread thread = new Thread(this::work, "partition-" + t);
            thread.setDaemon(true);
            thread.start();
        }
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopping = true;
        heartbeat.shutdownNow();
        int handedBack;
        try {
            handedBack = handBackWhatIsRunning();
            records.stopped(settings.processId());
        } catch (RuntimeException e) {
            // The database is away: the partitions' leases lapse, and the manager sends them again.
            handedBack = running.size();
        }
        if (refusal.get() != null) {
            err.println("nqueens: " + refusal.get());
            return 1;
        }
        if (gaveUp.get() != null) {
            err.println("nqueens: " + gaveUp.get());
            out.flush();
            err.flush();
            // Partitions still running here must never write again.
            Runtime.getRuntime().halt(ExitCode.UNAVAILABLE);
        }
        log(
                "worker %s stopped%s",
                settings.processId(),
                handedBack == 0 ? "" : ": handed back " + handedBack + " partition(s) in progress");
        if (handedBack > 0) {
            out.flush();
            // The handed-back partitions' threads must never update their step executions again.
            Runtime.getRuntime().halt(0);
        }
        return 0;
    }

    /** Stops taking requests (SIGTERM, Ctrl-C); {@link #run} then hands back what is running and returns. */
    public void stop() {
        stopping = true;
        stop.countDown();
    }

    private void work() {
        while (!stopping) {
            Decision decision;
            try {
                decision = queue.takeOne(() -> stopping);
                broker.succeeded();
            } catch (RuntimeException e) {
                // The broker or the database is away (the connection factory reconnects; said once each way),
                // or a request could not be checked: it went back to the queue. Try again.
                troubleTakingARequest(e);
                pause(Duration.ofSeconds(2));
                continue;
            }
            lastTrouble.set(null);
            if (decision == null) {
                pause(IDLE_POLL);
            } else if (decision.verdict() == Verdict.RUN) {
                try {
                    execute(decision);
                } catch (RuntimeException e) {
                    // A failure execute could not answer itself: the lease lapses, and the manager sends
                    // the partition again after worker-timeout.
                    if (LostDatabase.isCause(e)) {
                        database.failed(e);
                    } else {
                        log("partition %s: %s", decision.partition().getStepName(), Failure.firstLine(e));
                    }
                }
            } else if (decision.verdict() == Verdict.PASS_ON) {
                pause(PASS_ON_PAUSE);
            } else if (decision.verdict() == Verdict.REFUSE) {
                refusal.compareAndSet(null, decision.why());
                stop();
            }
        }
    }

    private void troubleTakingARequest(RuntimeException e) {
        if (LostDatabase.isCause(e)) {
            database.failed(e);
        } else if (BrokerCheck.isUnreachable(e)) {
            broker.failed(e);
        } else {
            String why = Failure.firstLine(e);
            if (!why.equals(lastTrouble.getAndSet(why))) {
                log("could not take a request: %s", why);
            }
        }
        giveUpIfAwayTooLong(broker);
        giveUpIfAwayTooLong(database);
    }

    /** A service away longer than {@code nqueens.outage-wait}: the worker stops (exit 4). */
    private void giveUpIfAwayTooLong(Outage service) {
        if (service.awayFor().compareTo(settings.outageWait()) > 0
                && gaveUp.compareAndSet(
                        null,
                        service.service() + " has been unreachable for more than "
                                + Durations.format(settings.outageWait().toSeconds()) + " (" + service.lastReason()
                                + "); the worker stopped")) {
            stop();
        }
    }

    private void execute(Decision decision) {
        StepExecution partition = decision.partition();
        String name = partition.getStepName();
        long attempt;
        try {
            attempt = records.started(
                    partition.getId(), partition.getJobExecutionId(), name, settings.processId(), "RUNNING", null);
        } catch (RuntimeException e) {
            if (!LostDatabase.isCause(e)) {
                throw e;
            }
            // Claimed, then the database went away before the partition could start. Its lease is
            // given up as soon as the database answers, so that the manager sends it again at its
            // next looks rather than after the lease runs out (worker-timeout, a minute by default).
            database.failed(e);
            whenTheDatabaseAnswers(() -> {
                records.abandonAttempts(
                        partition.getId(),
                        settings.processId(),
                        "the database went away before" + " it started; the worker handed it back");
                records.release(partition.getId(), settings.processId());
            });
            if (gaveUp.get() == null) {
                log("partition %s: the database went away before it started; handed back", name);
            }
            return;
        }
        running.put(partition.getId(), attempt);
        log("partition %s (run %d) started", name, partition.getJobExecutionId());
        long start = System.nanoTime();
        StepExecution result;
        try {
            result = handler.handle(decision.request());
        } catch (RuntimeException e) {
            // Batch records a step's own failures; this is one it could not (the database went away).
            // The lease is given up so that the manager sends the partition again.
            running.remove(partition.getId());
            whenTheDatabaseAnswers(() -> {
                records.release(partition.getId(), settings.processId());
                records.ended(attempt, "FAILED", Failure.firstLine(e));
            });
            log("partition %s could not be executed: %s", name, Failure.firstLine(e));
            return;
        }
        running.remove(partition.getId());
        boolean lostTheDatabase = !result.getStatus().isRunning()
                && result.getStatus() != BatchStatus.COMPLETED
                && result.getFailureExceptions().stream().anyMatch(LostDatabase::isCause);
        if (lostTheDatabase) {
            // Lost as the partition started, before its listeners ran, it has no exit code saying so:
            // the manager runs it again only on that code.
            result.setExitStatus(LostDatabase.EXIT_STATUS);
        }
        String outcome = outcomeOf(result);
        String detail = lostTheDatabase
                ? "lost the database: "
                        + Failure.rootMessage(result.getFailureExceptions().get(0))
                : result.getFailureExceptions().stream()
                        .map(Throwable::getMessage)
                        .findFirst()
                        .orElse(null);
        whenTheDatabaseAnswers(() -> {
            if (!"LEASE_LOST".equals(outcome)) {
                recordFinalStatus(result);
            }
            records.release(partition.getId(), settings.processId());
            records.ended(attempt, outcome, detail);
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        if (lostTheDatabase) {
            log(
                    "partition %s lost the database after %.1f s; its run goes on with it from its last commit",
                    name, seconds);
        } else {
            log(
                    "partition %s ended %s in %.1f s%s",
                    name, outcome, seconds, detail == null ? "" : ": " + Failure.firstLine(detail));
        }
    }

    /**
     * Records what a partition's end needs recorded once the database answers, waiting for it (with
     * back-off, up to {@code nqueens.outage-wait}): a partition that ends while the database is away
     * is told apart from one still running only by these records.
     */
    private void whenTheDatabaseAnswers(Runnable records) {
        try {
            LostDatabase.retryUntilBack(settings.outageWait()).invoke(records);
        } catch (RuntimeException e) {
            if (LostDatabase.isCause(e)) {
                database.failed(e);
                giveUpIfAwayTooLong(database);
            } else {
                throw e;
            }
        }
    }

    private static String outcomeOf(StepExecution result) {
        if (result.getFailureExceptions().stream().anyMatch(PartitionGuard.PartitionLostException.class::isInstance)) {
            return "LEASE_LOST";
        }
        return switch (result.getStatus()) {
            case COMPLETED -> "COMPLETED";
            case STOPPED, STOPPING -> "STOPPED";
            default -> "FAILED";
        };
    }

    /**
     * Spring Batch's handler marks a step that failed before it could record anything as FAILED in
     * memory only, leaving the job repository to say it runs (spring-batch#4006): the manager would
     * wait for it forever. The worker records it.
     */
    private void recordFinalStatus(StepExecution result) {
        StepExecution stored = jobRepository.getStepExecution(result.getId());
        if (stored != null
                && stored.getStatus().isRunning()
                && !result.getStatus().isRunning()) {
            try {
                jobRepository.update(result);
            } catch (RuntimeException e) {
                if (LostDatabase.isCause(e)) {
                    throw e;
                }
                log("could not record the end of %s: %s", result.getStepName(), e.getMessage());
            }
        }
    }

    /** SIGTERM: the partitions in progress are given up so that other workers go on with them at once. */
    private int handBackWhatIsRunning() {
        int handedBack = 0;
        for (Map.Entry<Long, Long> partition : Map.copyOf(running).entrySet()) {
            guard.handBack(partition.getKey());
            records.release(partition.getKey(), settings.processId());
            records.ended(partition.getValue(), "HANDED_BACK", "the worker was stopped");
            handedBack++;
        }
        return handedBack;
    }

    private void beat() {
        try {
            records.heartbeat(settings.processId(), settings.workerTimeout(), running.keySet());
            database.succeeded();
        } catch (RuntimeException e) {
            database.failed(e);
            giveUpIfAwayTooLong(database);
        }
    }

    private void log(String format, Object... args) {
        out.printf("%s %s%n", TIME.format(LocalDateTime.now()), String.format(format, args));
    }

    private void pause(Duration duration) {
        try {
            stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
