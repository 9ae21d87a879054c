package org.agentmemory.platform.ranking;

import java.util.Objects;

/**
 * One hit of one recall leg: an episode id and the leg's raw score (cosine similarity, BM25, …).
 *
 * @param id    the episode id; never {@code null}
 * @param score the leg's score, higher is better (ignored by {@link ReciprocalRankFusion})
 */
public record ScoredId(String id, double score) {

    /**
     * @throws NullPointerException when {@code id} is {@code null}
     */
    public ScoredId {
        Objects.requireNonNull(id, "id");
    }
}
