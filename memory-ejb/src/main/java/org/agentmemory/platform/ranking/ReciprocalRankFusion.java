package org.agentmemory.platform.ranking;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reciprocal rank fusion: score(id) = Σ over legs that returned it of 1 / (k + rank), rank 1-based
 * (Cormack, Clarke, Büttcher 2009; k = {@value #DEFAULT_K} by default). Scores of the legs are ignored.
 *
 * <p>When to use: the default for {@code HYBRID} recall. It needs no score calibration, so it fuses a
 * Lucene/OpenSearch BM25 leg (unbounded scores) with a k-NN cosine leg safely, and it is what an OpenSearch
 * search pipeline's RRF ranker computes, so client-side and server-side fusion agree. Its scores are small
 * (at most legs / (k + 1)) and are not similarities: do not apply a cosine threshold to them.
 *
 * <p>Thread-safe and immutable.
 */
public final class ReciprocalRankFusion implements Fusion {

    /** The customary constant. */
    public static final int DEFAULT_K = 60;

    private final int k;

    /** Fusion with k = {@value #DEFAULT_K}. */
    public ReciprocalRankFusion() {
        this(DEFAULT_K);
    }

    /**
     * @param k the rank constant, ≥ 1; larger values flatten the difference between top and lower ranks
     * @throws IllegalArgumentException when k &lt; 1
     */
    public ReciprocalRankFusion(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("RRF k is " + k + "; it must be ≥ 1 (customary: " + DEFAULT_K + ")");
        }
        this.k = k;
    }

    /** @return the rank constant */
    public int k() {
        return k;
    }

    @Override
    public List<FusedHit> fuse(Map<String, List<ScoredId>> legs) {
        Map<String, List<String>> ranked = new LinkedHashMap<>();
        legs.forEach(
                (leg, hits) -> ranked.put(leg, hits.stream().map(ScoredId::id).toList()));
        return fuseRanked(ranked);
    }

    /**
     * @param legs leg name → ids, best first (map order = leg order)
     * @return the fused hits, best first (ties: best rank, then id)
     */
    public List<FusedHit> fuseRanked(Map<String, List<String>> legs) {
        Map<String, Map<String, Integer>> ranks = new LinkedHashMap<>();
        legs.forEach((leg, ids) -> {
            int rank = 0;
            for (String id : ids) {
                rank++;
                Map<String, Integer> byLeg = ranks.computeIfAbsent(id, x -> new LinkedHashMap<>());
                byLeg.putIfAbsent(leg, rank);
            }
        });
        List<FusedHit> hits = new ArrayList<>(ranks.size());
        ranks.forEach((id, byLeg) -> {
            double score = 0.0;
            for (int rank : byLeg.values()) {
                score += 1.0 / (k + rank);
            }
            hits.add(new FusedHit(id, score, byLeg));
        });
        hits.sort(BEST_FIRST);
        return List.copyOf(hits);
    }

    static final Comparator<FusedHit> BEST_FIRST = Comparator.comparingDouble(FusedHit::score)
            .reversed()
            .thenComparingInt(FusedHit::bestRank)
            .thenComparing(FusedHit::id);
}
