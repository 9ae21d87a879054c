package org.agentmemory.platform.ranking;

import java.util.List;
import java.util.Map;

/**
 * Combines the ranked hits of several recall legs (e.g. {@code vector} and {@code full_text}) into one
 * list. Implementations: {@link ReciprocalRankFusion} (the default for hybrid recall) and
 * {@link WeightedScoreFusion}.
 */
public interface Fusion {

    /**
     * @param legs leg name → the leg's hits, best first; legs are visited in map order (use an ordered map);
     *             within a leg only the first occurrence of an id counts
     * @return every id returned by any leg, best first; ties are broken by the best rank in any leg, then by
     *         id (code unit order), so equal inputs always give equal outputs
     */
    List<FusedHit> fuse(Map<String, List<ScoredId>> legs);

    /**
     * @param legs  as {@link #fuse(Map)}
     * @param limit how many hits at most, ≥ 0
     * @return the first {@code limit} fused hits
     */
    default List<FusedHit> fuse(Map<String, List<ScoredId>> legs, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit is " + limit + "; it must be ≥ 0");
        }
        List<FusedHit> all = fuse(legs);
        return all.size() <= limit ? all : List.copyOf(all.subList(0, limit));
    }
}
