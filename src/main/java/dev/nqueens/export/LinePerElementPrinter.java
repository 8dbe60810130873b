package dev.nqueens.export;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.util.MinimalPrettyPrinter;

/**
 * Compact JSON with one array element per line, so a large report stays readable and greppable
 * line by line.
 */
final class LinePerElementPrinter extends MinimalPrettyPrinter {

    @Override
    public void beforeArrayValues(JsonGenerator generator) {
        generator.writeRaw('\n');
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator generator) {
        generator.writeRaw(",\n");
    }

    @Override
    public void writeEndArray(JsonGenerator generator, int valueCount) {
        if (valueCount > 0) {
            generator.writeRaw('\n');
        }
        generator.writeRaw(']');
    }
}
