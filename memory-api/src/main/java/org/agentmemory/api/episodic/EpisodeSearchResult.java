package org.agentmemory.api.episodic;

import java.io.Serializable;
import java.util.Objects;

/**
 * One recalled episode and how well it matched (spec §10.1 {@code EpisodeSearchResult}).
 *
 * @param episode the episode; never {@code null}
 * @param score   the match score, higher is better. Vector recall: cosine similarity clamped to [0, 1];
 *                hybrid recall: the fused score (reciprocal rank fusion scores are small, e.g. ≤ 2/61 for two
 *                legs; weighted fusion scores lie in [0, Σ weights]). The reference documents [0, 1.01].
 */
public record EpisodeSearchResult(Episode episode, double score) implements Serializable {

    /**
     * @throws NullPointerException when {@code episode} is {@code null}
     */
    public EpisodeSearchResult {
        Objects.requireNonNull(episode, "episode");
    }
}
