package org.agentmemory.platform.ranking;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One result of fusing recall legs.
 *
 * @param id    the episode id; never {@code null}
 * @param score the fused score, higher is better
 * @param ranks leg name → 1-based rank of the id in that leg, only for the legs that returned it, in leg
 *              order; unmodifiable
 */
public record FusedHit(String id, double score, Map<String, Integer> ranks) {

    /**
     * @throws NullPointerException when {@code id} or {@code ranks} is {@code null}
     */
    public FusedHit {
        Objects.requireNonNull(id, "id");
        ranks = Collections.unmodifiableMap(new LinkedHashMap<>(ranks));
    }

    /** @return the best (lowest) rank over the legs that returned the id */
    public int bestRank() {
        return ranks.values().stream().mapToInt(Integer::intValue).min().orElse(Integer.MAX_VALUE);
    }
}
