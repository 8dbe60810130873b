package dev.nqueens.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.support.converter.MessageConversionException;
import org.springframework.batch.integration.partition.StepExecutionRequest;

/** Partition requests travel as a small JSON document of one exact shape; nothing else is read. */
class StepRequestConverterTests {

    private final StepRequestConverter converter = new StepRequestConverter();

    @Test
    void aRequestTravelsAsJsonAndComesBackEqual() {
        Message message = converter.toMessage(new StepExecutionRequest("countPart", 42L), new MessageProperties());
        assertThat(new String(message.getBody(), StandardCharsets.UTF_8))
                .isEqualTo("{\"step\":\"countPart\",\"stepExecutionId\":42}");
        assertThat(message.getMessageProperties().getType()).isEqualTo(StepRequestConverter.TYPE);
        assertThat(message.getMessageProperties().getContentType()).isEqualTo("application/json");
        StepExecutionRequest back = converter.fromMessage(message);
        assertThat(back.getStepName()).isEqualTo("countPart");
        assertThat(back.getStepExecutionId()).isEqualTo(42L);
    }

    @Test
    void aJavaSerializedObjectIsRefusedWithoutBeingDeserialized() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new StepExecutionRequest("countPart", 42L));
        }
        MessageProperties properties = new MessageProperties();
        properties.setContentType(MessageProperties.CONTENT_TYPE_SERIALIZED_OBJECT);
        assertThatThrownBy(() -> converter.fromMessage(new Message(bytes.toByteArray(), properties)))
                .isInstanceOf(MessageConversionException.class)
                .hasMessageStartingWith("not a partition request");
        properties.setType(StepRequestConverter.TYPE);
        assertThatThrownBy(() -> converter.fromMessage(new Message(bytes.toByteArray(), properties)))
                .isInstanceOf(MessageConversionException.class)
                .hasMessageStartingWith("not a partition request");
    }

    @Test
    void anyOtherShapeIsRefused() {
        for (String body : new String[] {
            "{\"step\":\"countPart\"}",
            "{\"step\":1,\"stepExecutionId\":2}",
            "{\"step\":\"countPart\",\"stepExecutionId\":2,\"@class\":\"java.lang.Runtime\"}",
            "[]",
            "no json"
        }) {
            MessageProperties properties = new MessageProperties();
            properties.setType(StepRequestConverter.TYPE);
            assertThatThrownBy(
                            () -> converter.fromMessage(new Message(body.getBytes(StandardCharsets.UTF_8), properties)))
                    .as(body)
                    .isInstanceOf(MessageConversionException.class);
        }
        assertThatThrownBy(() -> converter.toMessage("a string", new MessageProperties()))
                .isInstanceOf(MessageConversionException.class);
    }
}
