package org.agentmemory.api.episodic;

import java.io.Serializable;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One recalled episode and how well it matched (spec §10.1 {@code EpisodeSearchResult}).
 *
 * @param episode the episode; never {@code null}
 * @param score   the match score, higher is better. Vector recall: cosine similarity, at least the score
 *                threshold; hybrid recall: the fused score (reciprocal rank fusion scores are small, at most
 *                2/(k + 1) for two legs: 2/11 with the default k of 10; weighted fusion scores lie in
 *                [0, Σ weights]). The reference documents [0, 1.01].
 */
@Schema(description = "One recalled episode and how well it matched.")
public record EpisodeSearchResult(
        @Schema(description = "The episode; never null.") Episode episode,

        @Schema(
                description =
                        "Match score, higher is better. vector mode: the cosine similarity (at least"
                                + " scoreThreshold); full_text mode: the BM25 relevance; hybrid mode: the fused score, not a"
                                + " similarity (with the default reciprocal rank fusion, memory.recall.rrf-k = 10, at most 2/11).")
        double score)
        implements Serializable {

    /**
     * @throws NullPointerException when {@code episode} is {@code null}
     */
    public EpisodeSearchResult {
        Objects.requireNonNull(episode, "episode");
    }
}
