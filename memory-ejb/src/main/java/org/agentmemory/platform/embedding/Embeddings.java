package org.agentmemory.platform.embedding;

import java.util.List;

/**
 * Resolves an {@link EmbeddingModel} by its configuration name ({@code memory.embedding.model},
 * {@code memory.embedding.message-model}). Resolving is cheap: the model itself loads on first use.
 */
public final class Embeddings {

    /** The default model's name: episodic memory's (all-MiniLM-L6-v2, int8; spec §10.5). */
    public static final String DEFAULT = "all-minilm-l6-v2-q";
    /** The default model's name for conversation messages (bge-small-en-v1.5, int8; chosen on LoCoMo). */
    public static final String MESSAGE_DEFAULT = "bge-small-en-v1.5-q";
    /** Every valid name. */
    public static final List<String> NAMES = InProcessEmbeddingModel.names();

    private Embeddings() {}

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

    /** @return the default model of episodic memory */
    public static EmbeddingModel defaultModel() {
        return forName(DEFAULT);
    }

    /** @return the default model of conversation messages */
    public static EmbeddingModel messageDefaultModel() {
        return forName(MESSAGE_DEFAULT);
    }
}
