package dev.nqueens.cluster;

import dev.nqueens.job.LostDatabase;
import dev.nqueens.job.Outage;
import dev.nqueens.job.ProgressReporter;
import dev.nqueens.job.RunLock;
import dev.nqueens.settings.Durations;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobExecutionException;
import org.springframework.batch.core.partition.PartitionHandler;
import org.springframework.batch.core.partition.StepExecutionSplitter;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.integration.partition.MessageChannelPartitionHandler;
import org.springframework.batch.integration.partition.StepExecutionRequest;
import org.springframework.integration.core.MessagingTemplate;
import org.springframework.integration.support.MessageBuilder;

/**
 * Runs the partitions of one manager step on the cluster with Spring Batch's
 * {@link MessageChannelPartitionHandler} in repository-polling mode (it sends one request per
 * partition to the queue and polls the job repository until every partition has finished), and
 * looks after them while it waits, every quarter of {@code nqueens.cluster.worker-timeout}:
 * <ul>
 * <li>a partition whose worker stopped renewing its lease (killed, cut off) or handed it back is
 * sent again, and another worker goes on with it from what it recorded;</li>
 * <li>a request that vanished before any worker claimed it (the queue is empty, nobody holds the
 * partition) is sent again;</li>
 * <li>when no worker has been alive for the whole timeout, the partitions still open are marked
 * FAILED and the step fails saying so (whether no worker ever registered, or when the last one was
 * heard of): the next run resumes them;</li>
 * <li>the broker is asked how many requests wait: the watch says when it went away and when it is
 * back, once each, and gives up after {@code nqueens.outage-wait} (the open partitions fail);</li>
 * <li>a run that lost the run lock (another run took it over while this one could not reach the
 * database) stops: its open partitions fail, and nothing more is sent.</li>
 * </ul>
 * A partition that failed on a lost database connection ({@link LostDatabase#EXIT_CODE}) fails the
 * step as a lost database, and the run runs it again from its last commit (see {@code NightlyRun}).
 * Duplicate requests are harmless: a worker claims a partition before working on it, and drops a
 * request for a partition that is finished or claimed by a live worker.
 */
final class ClusterPartitionHandler implements PartitionHandler {

    private static final String START_WORKERS =
            " (start `./nqueens worker` on machines that reach the broker and the" + " database); the next run resumes";
    /** How long the workers get to record the end of the partitions they failed, before their exit codes are read. */
    private static final Duration LAST_WORDS = Duration.ofSeconds(2);

    /** The repository is polled this often when a step has few partitions... */
    private static final Duration MIN_POLL = Duration.ofMillis(500);
    /** ...and at most this rarely, when it has thousands (each poll loads all of them). */
    private static final Duration MAX_POLL = Duration.ofSeconds(5);
    /** The poll's pause grows by this per partition between the two. */
    private static final Duration POLL_PER_PARTITION = Duration.ofMillis(2);

    private final String workerStepName;
    private final MessagingTemplate messaging;
    private final JobRepository jobRepository;
    private final ClusterRecords records;
    private final RabbitAdmin rabbitAdmin;
    private final ClusterConfiguration.ClusterSettings settings;
    private final MessageChannelPartitionHandler requests;
    private final RunLock runLock;
    private final ProgressReporter console;

    ClusterPartitionHandler(
            String workerStepName,
            MessagingTemplate messaging,
            JobRepository jobRepository,
            ClusterRecords records,
            RabbitAdmin rabbitAdmin,
            ClusterConfiguration.ClusterSettings settings,
            RunLock runLock,
            ProgressReporter console) {
        this.runLock = runLock;
        this.console = console;
        this.workerStepName = workerStepName;
        this.messaging = messaging;
        this.jobRepository = jobRepository;
        this.records = records;
        this.rabbitAdmin = rabbitAdmin;
        this.settings = settings;
        this.requests = new MessageChannelPartitionHandler();
        requests.setStepName(workerStepName);
        requests.setMessagingOperations(messaging);
        requests.setJobRepository(jobRepository);
        requests.setPollInterval(MIN_POLL.toMillis());
        requests.setGridSize(1);
        try {
            requests.afterPropertiesSet();
        } catch (Exception e) {
            throw new IllegalStateException("cannot set up the remote partition handler", e);
        }
    }

    @Override
    public Collection<StepExecution> handle(StepExecutionSplitter splitter, StepExecution managerStep)
            throws Exception {
        Watch watch = new Watch(managerStep.getJobExecutionId());
        Thread thread = new Thread(watch::run, "nqueens-cluster-watch-" + managerStep.getStepName());
        thread.setDaemon(true);
        thread.start();
        Collection<StepExecution> partitions;
        try {
            partitions = requests.handle(new PollPacing(splitter), managerStep);
        } finally {
            watch.stop.countDown();
            thread.join(settings.workerTimeout().toMillis());
        }
        if (watch.stopped != null) {
            throw watch.stopped;
        }
        List<StepExecution> failed =
                partitions.stream().filter(p -> p.getStatus().isUnsuccessful()).toList();
        if (!failed.isEmpty()) {
            failed = afterTheirLastWords(failed);
            if (failed.stream().anyMatch(LostDatabase::lostBy)) {
                throw new LostDatabase.LostDatabaseException(
                        failed.size() + " partition(s) lost the database on the" + " workers");
            }
            StepExecution first = failed.get(0);
            throw new IllegalStateException(
                    failed.size() + " partition(s) failed on the workers, e.g. " + first.getStepName() + ": "
                            + firstLine(first.getExitStatus().getExitDescription()));
        }
        return partitions;
    }

    /**
     * The failed partitions read again after a moment: a worker records how a partition ended in two
     * updates, the exit code that says it lost the database in the second.
     */
    private List<StepExecution> afterTheirLastWords(List<StepExecution> failed) throws InterruptedException {
        Thread.sleep(LAST_WORDS.toMillis());
        try {
            return failed.stream()
                    .map(partition -> jobRepository.getStepExecution(partition.getId()))
                    .toList();
        } catch (RuntimeException e) {
            if (LostDatabase.isCause(e)) {
                throw new LostDatabase.LostDatabaseException("the database went away while the partitions ended", e);
            }
            throw e;
        }
    }

    /** The poll interval for a step of {@code partitions} partitions. */
    static Duration pollInterval(int partitions) {
        Duration interval = POLL_PER_PARTITION.multipliedBy(partitions);
        return interval.compareTo(MIN_POLL) < 0 ? MIN_POLL : interval.compareTo(MAX_POLL) > 0 ? MAX_POLL : interval;
    }

    /**
     * Sets the repository poll to the number of partitions as soon as the step is split: each poll
     * loads the job execution with all its step executions, so a step of a few dozen partitions
     * is seen finished within half a second and one of thousands costs the database little.
     */
    private final class PollPacing implements StepExecutionSplitter {

        private final StepExecutionSplitter splitter;

        PollPacing(StepExecutionSplitter splitter) {
            this.splitter = splitter;
        }

        @Override
        public String getStepName() {
            return splitter.getStepName();
        }

        @Override
        public Set<StepExecution> split(StepExecution stepExecution, int gridSize) throws JobExecutionException {
            Set<StepExecution> split = splitter.split(stepExecution, gridSize);
            requests.setPollInterval(pollInterval(split.size()).toMillis());
            return split;
        }
    }

    private static String firstLine(String text) {
        return text == null || text.isBlank()
                ? "(no description)"
                : text.lines().findFirst().orElse(text);
    }

    /** Looks after the partitions of one manager step while they run. */
    private final class Watch {

        private final long jobExecutionId;
        private final CountDownLatch stop = new CountDownLatch(1);
        /** The partitions this watch sent again that no worker has claimed since. */
        private final Map<Long, Instant> resent = new HashMap<>();
        /** Partitions seen open without a lease (handed back, or lost) at consecutive looks. */
        private final Map<Long, Integer> looks = new HashMap<>();

        private Instant lastLiveWorker = Instant.now();
        private final Outage broker = new Outage("the broker", line -> console.line("  " + line));
        /** Why the watch ended the step early (no live worker, the broker gone, the run lock lost); null if it did not. */
        private volatile RuntimeException stopped;

        Watch(long jobExecutionId) {
            this.jobExecutionId = jobExecutionId;
        }

        void run() {
            try {
                while (!stop.await(settings.heartbeat().toMillis(), TimeUnit.MILLISECONDS) && stopped == null) {
                    Long queued = queued();
                    try {
                        look(queued);
                    } catch (RuntimeException e) {
                        // The database is briefly away (the run lock's heartbeat says so): look again at the next beat.
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void look(Long queued) {
            if (runLock.held().map(RunLock.Held::lost).orElse(false)) {
                stop(runLock.held().get().lostException(), openPartitions());
                return;
            }
            if (broker.awayFor().compareTo(settings.outageWait()) > 0) {
                stop(
                        new BrokerCheck.BrokerUnavailableException("the broker has been unreachable for more than "
                                + Durations.format(settings.outageWait().toSeconds()) + " (" + broker.lastReason()
                                + "); the run stopped, and the next run resumes it"),
                        openPartitions());
                return;
            }
            List<StepExecution> open = openPartitions();
            if (open.isEmpty()) {
                return;
            }
            if (records.liveThreads(settings.workerTimeout()) > 0) {
                lastLiveWorker = Instant.now();
            } else if (Duration.between(lastLiveWorker, Instant.now())
                            .compareTo(settings.workerTimeout().minus(settings.heartbeat()))
                    >= 0) {
                // Looked at every quarter of the timeout: this says so within the timeout.
                stop(new IllegalStateException(noLiveWorker()), open);
                return;
            }
            Map<Long, ClusterRecords.Lease> leases = records.leases(jobExecutionId).stream()
                    .collect(Collectors.toMap(ClusterRecords.Lease::stepExecutionId, Function.identity()));
            for (StepExecution partition : open) {
                long id = partition.getId();
                ClusterRecords.Lease lease = leases.get(id);
                if (lease != null && !lease.expired()) {
                    // A live worker holds it.
                    looks.remove(id);
                    resent.remove(id);
                } else if (lease != null && !resent.containsKey(id)) {
                    // Its worker died or was cut off: another worker goes on with it.
                    if (resend(partition, "lost its worker " + lease.workerId() + " (no lease renewal)")) {
                        records.abandonAttempts(
                                id,
                                lease.workerId(),
                                "the worker stopped renewing its lease;" + " the partition was sent again");
                    }
                } else if (resent.containsKey(id) || partition.getStatus() == BatchStatus.STARTING) {
                    // A request for it should be waiting in the queue. If the queue is empty twice in a row
                    // while nobody holds it, the request was lost (a worker died between taking and claiming
                    // it, or the broker lost it).
                    if (queued != null && queued == 0 && looks.merge(id, 1, Integer::sum) >= 2) {
                        resend(partition, "was not claimed and its request is not in the queue");
                    } else if (queued == null || queued > 0) {
                        looks.remove(id);
                    }
                } else if (looks.merge(id, 1, Integer::sum) >= 2) {
                    // Started, but nobody holds it: its worker handed it back.
                    resend(partition, "was handed back");
                }
            }
        }

        /** The partitions of this run and step that have not finished. */
        private List<StepExecution> openPartitions() {
            return jobRepository.getJobExecution(jobExecutionId).getStepExecutions().stream()
                    .filter(step -> step.getStepName().startsWith(workerStepName + ":"))
                    .filter(step -> step.getStatus() == BatchStatus.STARTING || step.getStatus() == BatchStatus.STARTED)
                    .toList();
        }

        /** The requests waiting in the queue, or null if the broker cannot say (it is away: said once). */
        private Long queued() {
            try {
                Properties queue = rabbitAdmin.getQueueProperties(settings.queue());
                broker.succeeded();
                Object count = queue == null ? null : queue.get(RabbitAdmin.QUEUE_MESSAGE_COUNT);
                return count instanceof Number number ? number.longValue() : null;
            } catch (RuntimeException e) {
                broker.failed(e);
                return null;
            }
        }

        /** Why no worker is alive: none ever registered, or the last one was heard of so long ago. */
        private String noLiveWorker() {
            return records.lastHeard()
                            .map(last -> "no live worker: the last one (" + last.workerId() + ") was heard of "
                                    + last.secondsAgo() + " s ago")
                            .orElse("no live worker: none has ever registered")
                    + START_WORKERS;
        }

        /**
         * Sends a partition's request again unless it has meanwhile finished or been claimed (both
         * read afresh); it is not sent again until a worker has claimed it or its request is lost.
         */
        private boolean resend(StepExecution partition, String why) {
            StepExecution now = jobRepository.getStepExecution(partition.getId());
            if (now == null
                    || !now.getStatus().isRunning()
                    || records.lease(partition.getId())
                            .filter(lease -> !lease.expired())
                            .isPresent()) {
                return false;
            }
            messaging.send(MessageBuilder.withPayload(new StepExecutionRequest(workerStepName, partition.getId()))
                    .build());
            resent.put(partition.getId(), Instant.now());
            looks.remove(partition.getId());
            console.line(String.format(
                    "  partition %s %s: sent again",
                    partition.getStepName().substring(workerStepName.length() + 1), why));
            return true;
        }

        /** The step cannot go on: the open partitions fail, so the polling ends and the step with them. */
        private void stop(RuntimeException why, List<StepExecution> open) {
            stopped = why;
            for (StepExecution partition : open) {
                StepExecution current = jobRepository.getStepExecution(partition.getId());
                if (current == null || !current.getStatus().isRunning()) {
                    continue;
                }
                current.setStatus(BatchStatus.FAILED);
                current.setExitStatus(ExitStatus.FAILED.addExitDescription(why.getMessage()));
                current.setEndTime(LocalDateTime.now());
                jobRepository.update(current);
            }
        }
    }
}
