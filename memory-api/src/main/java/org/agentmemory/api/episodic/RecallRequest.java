package org.agentmemory.api.episodic;

import java.io.Serializable;

/**
 * A recall of episodes similar to a query (spec §10.3 {@code recall_similar}).
 *
 * @param namespace      the namespace whose episodes may come back (spec §10.1 {@code build_filter}: tenant and
 *                       agent always, user, session, room and crew when set); required. The filter is applied
 *                       inside every retrieval leg, so another namespace's episodes never come back.
 * @param query          the query text; required, not blank. NFC-normalised before use.
 * @param topK           results at most, 1 to {@value #MAX_TOP_K}; {@code null} for {@value #DEFAULT_TOP_K}
 * @param scoreThreshold the least cosine similarity of a vector hit, in [−1, 1]; {@code null} for the
 *                       configured embedding model's default: {@value #DEFAULT_SCORE_THRESHOLD} for all-MiniLM-L6-v2
 *                       (the reference's default), 0.6 for bge-small-en-v1.5, whose cosines run higher. It applies to the vector leg
 *                       in {@link RecallMode#VECTOR} and {@link RecallMode#HYBRID} modes; full-text hits need at
 *                       least one matching term.
 * @param category       only episodes of this category (post-filtered after a 2× over-fetch, spec §10.3), or
 *                       {@code null} for all
 * @param failuresOnly   only failure episodes (applied inside every leg)
 * @param mode           how to search; {@code null} for {@link RecallMode#HYBRID}
 */
public record RecallRequest(
        MemoryNamespace namespace,
        String query,
        Integer topK,
        Double scoreThreshold,
        EpisodeCategory category,
        boolean failuresOnly,
        RecallMode mode)
        implements Serializable {

    /** Largest {@code topK}. */
    public static final int MAX_TOP_K = 100;
    /** {@code topK} when none is given (spec §10.3). */
    public static final int DEFAULT_TOP_K = 5;
    /** {@code scoreThreshold} of spec §10.3, calibrated on all-MiniLM-L6-v2; the service uses its model's equivalent. */
    public static final double DEFAULT_SCORE_THRESHOLD = 0.3;

    /**
     * @param namespace the namespace
     * @param query     the query
     * @return a hybrid request with the defaults
     */
    public static RecallRequest of(MemoryNamespace namespace, String query) {
        return new RecallRequest(namespace, query, null, null, null, false, null);
    }

    /**
     * @param newMode the mode
     * @return a copy with the mode replaced
     */
    public RecallRequest withMode(RecallMode newMode) {
        return new RecallRequest(namespace, query, topK, scoreThreshold, category, failuresOnly, newMode);
    }

    /** @return {@code topK} or its default */
    public int effectiveTopK() {
        return topK == null ? DEFAULT_TOP_K : topK;
    }

    /** @return {@code scoreThreshold} or spec §10.3's default (the service uses its model's equivalent instead) */
    public double effectiveScoreThreshold() {
        return scoreThreshold == null ? DEFAULT_SCORE_THRESHOLD : scoreThreshold;
    }

    /** @return {@code mode} or {@link RecallMode#HYBRID} */
    public RecallMode effectiveMode() {
        return mode == null ? RecallMode.HYBRID : mode;
    }
}
