package dev.nqueens.cluster;

import java.nio.charset.StandardCharsets;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.support.converter.MessageConversionException;
import org.springframework.amqp.support.converter.MessageConverter;
import org.springframework.batch.integration.partition.StepExecutionRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Carries Spring Batch's {@link StepExecutionRequest} — a step name and a step execution id,
 * nothing else — as a small JSON document, {@code {"step":"countPart","stepExecutionId":123}}.
 * Nothing is deserialized with Java serialization, and nothing but this one shape is accepted: a
 * message of any other type or form is refused, not instantiated.
 */
final class StepRequestConverter implements MessageConverter {

    /** The message type header: the one type this converter reads and writes. */
    static final String TYPE = "nqueens.StepExecutionRequest";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public Message toMessage(Object object, MessageProperties properties) {
        if (!(object instanceof StepExecutionRequest request)) {
            throw new MessageConversionException("only step execution requests are sent, not " + object.getClass());
        }
        properties.setContentType(MessageProperties.CONTENT_TYPE_JSON);
        properties.setContentEncoding("UTF-8");
        properties.setType(TYPE);
        byte[] body = JSON.createObjectNode()
                .put("step", request.getStepName())
                .put("stepExecutionId", request.getStepExecutionId())
                .toString()
                .getBytes(StandardCharsets.UTF_8);
        properties.setContentLength(body.length);
        return new Message(body, properties);
    }

    @Override
    public StepExecutionRequest fromMessage(Message message) {
        if (!TYPE.equals(message.getMessageProperties().getType())) {
            throw new MessageConversionException("not a partition request (type "
                    + message.getMessageProperties().getType() + ")");
        }
        try {
            JsonNode json = JSON.readTree(new String(message.getBody(), StandardCharsets.UTF_8));
            JsonNode step = json.get("step");
            JsonNode id = json.get("stepExecutionId");
            if (json.size() != 2 || step == null || !step.isString() || id == null || !id.canConvertToLong()) {
                throw new MessageConversionException("not a partition request: " + json);
            }
            return new StepExecutionRequest(step.asString(), id.asLong());
        } catch (JacksonException e) {
            throw new MessageConversionException("not a partition request: " + e.getOriginalMessage(), e);
        }
    }
}
