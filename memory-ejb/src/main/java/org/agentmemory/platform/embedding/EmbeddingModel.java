package org.agentmemory.platform.embedding;

import java.util.List;

/**
 * Turns text into a dense vector for similarity search (spec §10.5). Vectors are L2-normalised, so the
 * dot product of two vectors is their cosine similarity. Implementations are thread-safe, load their
 * model at most once per process, and never download anything.
 *
 * <p>Resolve one by name with {@link Embeddings#forName(String)}.
 */
public interface EmbeddingModel {

    /** @return the model's configuration name, e.g. {@code all-minilm-l6-v2} */
    String name();

    /** @return the vector length (384 for all-MiniLM-L6-v2) */
    int dimension();

    /**
     * @param text the text; not blank. It is NFC-normalised first, so canonically equivalent spellings give
     *             identical vectors. Texts longer than the model's window are chunked and the chunk vectors
     *             averaged.
     * @return a unit-length vector of {@link #dimension()} floats
     * @throws IllegalArgumentException when the text is {@code null} or blank
     */
    float[] embed(String text);

    /**
     * Embeds a search query. Models trained with a query instruction (e.g. bge's) get it here, so a short
     * question lands near the passages that answer it; for the others this is {@link #embed(String)}.
     *
     * @param query the query; not blank, NFC-normalised like {@link #embed(String)}
     * @return a unit-length vector of {@link #dimension()} floats, comparable with stored texts' vectors
     * @throws IllegalArgumentException when the query is {@code null} or blank; an {@link UnreadableTextException}
     *                                  when the model reads nothing in it
     */
    default float[] embedQuery(String query) {
        return embed(query);
    }

    /**
     * The least cosine similarity at which this model's vectors count as related, used when a recall names no
     * threshold. Spec §10.3 gives 0.3, calibrated on all-MiniLM-L6-v2; models whose cosines of unrelated texts sit
     * higher (bge's near 0.3 instead of 0.0) return their own equivalent.
     *
     * @return a cosine similarity in [−1, 1]
     */
    default double defaultScoreThreshold() {
        return 0.3;
    }

    /**
     * @param texts the texts; none blank
     * @return one vector per text, in order
     * @throws IllegalArgumentException when a text is {@code null} or blank (the message gives its index)
     */
    List<float[]> embedAll(List<String> texts);
}
