package org.agentmemory.embedding;

import java.util.List;

/**
 * Resolves an {@link EmbeddingModel} by its configuration name ({@code memory.embedding.model}). Resolving is
 * cheap: the model itself loads on first use.
 */
public final class Embeddings {

    /** The default model's name. */
    public static final String DEFAULT = "bge-small-en-v1.5-q";
    /** Every valid name. */
    public static final List<String> NAMES = InProcessEmbeddingModel.names();

    private Embeddings() {
    }

    /**
     * @param name a name of {@link #NAMES}; case-insensitive, surrounding blanks ignored; {@code null} means
     *             the default
     * @return the model, with ONNX Runtime's default thread count
     * @throws IllegalArgumentException for any other name; the message lists the valid names
     */
    public static EmbeddingModel forName(String name) {
        return forName(name, 0);
    }

    /**
     * @param name           as {@link #forName(String)}
     * @param intraOpThreads ONNX Runtime threads per inference, ≥ 0 (0 = ONNX Runtime's default, one per
     *                       physical core)
     * @return the model
     * @throws IllegalArgumentException for an unknown name (the message lists the valid names) or a negative
     *                                  thread count
     */
    public static EmbeddingModel forName(String name, int intraOpThreads) {
        InProcessEmbeddingModel model = InProcessEmbeddingModel.forName(name == null ? DEFAULT : name)
                .orElseThrow(() -> new IllegalArgumentException("Unknown embedding model '" + name
                        + "'; valid values are " + String.join(", ", NAMES) + " (default " + DEFAULT + ")"));
        return model.withThreads(intraOpThreads);
    }

    /** @return the default model */
    public static EmbeddingModel defaultModel() {
        return forName(DEFAULT);
    }
}
