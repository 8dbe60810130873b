package dev.nqueens.cluster;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.nqueens.cluster.RequestCheck.Decision;
import dev.nqueens.cluster.RequestCheck.Verdict;
import dev.nqueens.failure.Failure;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.support.DefaultMessagePropertiesConverter;
import org.springframework.amqp.support.converter.MessageConversionException;
import org.springframework.batch.integration.partition.StepExecutionRequest;

/**
 * The partition requests on the broker's queue as a worker's thread takes them: one message at a
 * time ({@code basic.get}) when the thread is free, so a busy worker never sits on requests that
 * idle workers could run, and no delivery stays unacknowledged for the length of a partition
 * (RabbitMQ would close it after {@code consumer_timeout}). A request is not trusted: before it is
 * acknowledged it is checked in the database ({@link RequestCheck}) and dropped if its partition is
 * finished, claimed by a live worker, or belongs to a run that is over or whose manager is gone;
 * passed on to another worker if this one counted the other replica of a cross-check; otherwise
 * the partition's lease is claimed, and only then is the request acknowledged.
 */
final class RequestQueue {

    /** How many requests a worker passes on, held back, while it looks for one it can run. */
    private static final int LOOK_PAST = 64;

    private final RabbitTemplate partitionTemplate;
    private final RequestCheck check;
    private final ClusterRecords records;
    private final ClusterConfiguration.ClusterSettings settings;
    private final Consumer<String> log;
    private final StepRequestConverter converter = new StepRequestConverter();
    private final DefaultMessagePropertiesConverter properties = new DefaultMessagePropertiesConverter();

    RequestQueue(
            RabbitTemplate partitionTemplate,
            RequestCheck check,
            ClusterRecords records,
            ClusterConfiguration.ClusterSettings settings,
            Consumer<String> log) {
        this.partitionTemplate = partitionTemplate;
        this.check = check;
        this.records = records;
        this.settings = settings;
        this.log = log;
    }

    /**
     * Takes one request off the queue, decides about it and acknowledges or returns it; null if the
     * queue is empty. A cross-check request this worker must pass on (it counted the other replica)
     * is held unacknowledged while the worker looks at the requests behind it, up to
     * {@link #LOOK_PAST}, and returned to the queue, in its place, once the worker has found one it
     * can run (or none): a worker never idles on a request it may not run while others wait.
     */
    Decision takeOne(BooleanSupplier stopping) {
        return partitionTemplate.execute(channel -> {
            List<Long> passedOn = new ArrayList<>();
            Decision lastPassedOn = null;
            try {
                while (!stopping.getAsBoolean()) {
                    GetResponse response = channel.basicGet(settings.queue(), false);
                    if (response == null) {
                        return lastPassedOn;
                    }
                    long tag = response.getEnvelope().getDeliveryTag();
                    StepExecutionRequest request;
                    try {
                        request = converter.fromMessage(new Message(
                                response.getBody(),
                                properties.toMessageProperties(response.getProps(), response.getEnvelope(), "UTF-8")));
                    } catch (MessageConversionException e) {
                        channel.basicReject(tag, false);
                        log("dropped a message that is not a partition request: %s", e.getMessage());
                        return new Decision(Verdict.DROP, null, null, e.getMessage());
                    }
                    Decision decision;
                    try {
                        decision = check.decide(request);
                    } catch (RuntimeException e) {
                        // Never left unacknowledged on this channel, where nobody would see it again.
                        channel.basicReject(tag, true);
                        throw new IllegalStateException(
                                "the request for step execution " + request.getStepExecutionId()
                                        + " went back to the queue: " + Failure.firstLine(e),
                                e);
                    }
                    if (decision.verdict() == Verdict.PASS_ON && passedOn.size() < LOOK_PAST) {
                        passedOn.add(tag);
                        lastPassedOn = decision;
                        continue;
                    }
                    if (decision.verdict() == Verdict.PASS_ON || decision.verdict() == Verdict.REFUSE) {
                        channel.basicReject(tag, true);
                    } else if (decision.verdict() == Verdict.RUN) {
                        acknowledgeClaimed(channel, tag, decision);
                    } else {
                        channel.basicAck(tag, false);
                    }
                    if (decision.verdict() == Verdict.DROP) {
                        records.started(
                                request.getStepExecutionId(),
                                decision.partition() == null
                                        ? null
                                        : decision.partition().getJobExecutionId(),
                                decision.partition() == null
                                        ? "?"
                                        : decision.partition().getStepName(),
                                settings.processId(),
                                "DROPPED",
                                decision.why());
                        log(
                                "dropped the request for step execution %d: %s",
                                request.getStepExecutionId(), decision.why());
                    }
                    return decision;
                }
                return lastPassedOn;
            } finally {
                for (long tag : passedOn) {
                    try {
                        channel.basicReject(tag, true);
                    } catch (IOException | RuntimeException e) {
                        // The channel is gone: the broker returns what it delivered on it to the queue.
                    }
                }
            }
        });
    }

    /**
     * Acknowledges a request whose partition this worker has claimed. If the broker went away
     * between the claim and the acknowledgement, the partition is this worker's all the same (its
     * lease, which the heartbeat renews, keeps the others and the manager off it): it is run, and
     * the request, if the broker still has it, comes back later and is dropped then.
     */
    private void acknowledgeClaimed(Channel channel, long tag, Decision decision) {
        try {
            channel.basicAck(tag, false);
        } catch (IOException | RuntimeException e) {
            log(
                    "partition %s: claimed, but the broker went away before its request was acknowledged (%s);"
                            + " running it",
                    decision.partition().getStepName(), Failure.firstLine(e));
        }
    }

    private void log(String format, Object... args) {
        log.accept(String.format(format, args));
    }
}
