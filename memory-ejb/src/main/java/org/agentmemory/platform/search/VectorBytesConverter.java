package org.agentmemory.platform.search;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Stores an embedding ({@code float[]}) as bytes: the floats in order, 4 bytes each, little-endian IEEE-754.
 * A plain binary column ({@code BYTEA} on PostgreSQL, {@code BINARY VARYING} on H2) needs no vector extension
 * and keeps the vector with its row, so the search index can be rebuilt without the embedding model.
 */
@Converter
public class VectorBytesConverter implements AttributeConverter<float[], byte[]> {

    @Override
    public byte[] convertToDatabaseColumn(float[] attribute) {
        return toBytes(attribute);
    }

    @Override
    public float[] convertToEntityAttribute(byte[] dbData) {
        return toFloats(dbData);
    }

    /**
     * @param vector a vector, or {@code null}
     * @return its bytes, or {@code null}
     */
    public static byte[] toBytes(float[] vector) {
        if (vector == null) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(vector);
        return buffer.array();
    }

    /**
     * @param bytes bytes written by {@link #toBytes}, or {@code null}
     * @return the vector, or {@code null}
     * @throws IllegalStateException when the length is not a multiple of 4
     */
    public static float[] toFloats(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.length % Float.BYTES != 0) {
            throw new IllegalStateException("A stored embedding has " + bytes.length
                    + " bytes, not a multiple of 4; the row is corrupt. Re-record or re-embed it.");
        }
        float[] vector = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
        return vector;
    }
}
