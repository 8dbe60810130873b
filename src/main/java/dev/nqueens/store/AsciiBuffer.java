package dev.nqueens.store;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable buffer of ASCII bytes that numbers and texts are appended to without intermediate
 * strings: the rows of a {@code COPY} and the lines of the export files, millions at a time.
 * Not thread-safe.
 */
public final class AsciiBuffer {

    private byte[] bytes;
    private int length;

    public AsciiBuffer(int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    public int length() {
        return length;
    }

    public AsciiBuffer clear() {
        length = 0;
        return this;
    }

    public AsciiBuffer append(char c) {
        ensure(1);
        bytes[length++] = (byte) c;
        return this;
    }

    /** Appends a text of ASCII characters (placements, column names). */
    public AsciiBuffer append(String ascii) {
        int size = ascii.length();
        ensure(size);
        for (int i = 0; i < size; i++) {
            bytes[length + i] = (byte) ascii.charAt(i);
        }
        length += size;
        return this;
    }

    /** Appends a number in decimal. */
    public AsciiBuffer append(long value) {
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                return append(Long.toString(value));
            }
            append('-');
            value = -value;
        }
        ensure(20);
        int start = length;
        do {
            bytes[length++] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value != 0);
        for (int i = start, j = length - 1; i < j; i++, j--) {
            byte swap = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = swap;
        }
        return this;
    }

    /** Writes the buffer to {@code out} and empties it. */
    public void drainTo(OutputStream out) throws IOException {
        out.write(bytes, 0, length);
        length = 0;
    }

    /** The bytes appended so far (the buffer's own array: valid until the next append). */
    public byte[] array() {
        return bytes;
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
