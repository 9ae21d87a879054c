package org.agentmemory.embedding;

import java.util.List;
import java.util.Locale;

/**
 * Resolves an {@link EmbeddingModel} by its configuration name. Resolving is cheap: the model itself loads
 * on first use.
 */
public final class Embeddings {

    /** The default model's name. */
    public static final String DEFAULT = "all-minilm-l6-v2";
    /** Every valid name, default first. */
    public static final List<String> NAMES = List.of(MiniLmEmbeddingModel.FLOAT.name(),
            MiniLmEmbeddingModel.QUANTIZED.name());

    private Embeddings() {
    }

    /**
     * @param name {@code all-minilm-l6-v2} (float32, default) or {@code all-minilm-l6-v2-q} (int8);
     *             case-insensitive, surrounding blanks ignored; {@code null} means the default
     * @return the model (a process-wide singleton)
     * @throws IllegalArgumentException for any other name; the message lists the valid names
     */
    public static EmbeddingModel forName(String name) {
        String key = name == null ? DEFAULT : name.strip().toLowerCase(Locale.ROOT);
        return switch (key) {
            case "all-minilm-l6-v2" -> MiniLmEmbeddingModel.FLOAT;
            case "all-minilm-l6-v2-q" -> MiniLmEmbeddingModel.QUANTIZED;
            default -> throw new IllegalArgumentException("Unknown embedding model '" + name
                    + "'; valid values are all-minilm-l6-v2 (default, float32) and all-minilm-l6-v2-q (int8 quantized)");
        };
    }

    /** @return the default model */
    public static EmbeddingModel defaultModel() {
        return MiniLmEmbeddingModel.FLOAT;
    }
}
