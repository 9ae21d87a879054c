package org.agentmemory.platform.ranking;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Weighted score fusion: each leg's scores are min-max normalised to [0, 1] over that leg's hits
 * ((s − min) / (max − min); all equal, or a single hit, → 1), and fused(id) = Σ weight(leg) × normalised
 * score (0 for a leg that did not return the id).
 *
 * <p>When to use: when score magnitudes matter and the legs' weights are tuned, e.g. to approximate the
 * reference's hybrid 0.6 × semantic + 0.4 × text (spec §10.6; the reference divided BM25 by its maximum
 * and used raw cosine; min-max is used here for both legs so neither dominates by scale). Scores lie in
 * [0, Σ weights]. Min-max is sensitive to outliers and to how many hits each leg returns; prefer
 * {@link ReciprocalRankFusion} unless the weights were tuned on real data.
 *
 * <p>Thread-safe and immutable.
 */
public final class WeightedScoreFusion implements Fusion {

    private final Map<String, Double> weights;

    /**
     * @param weights leg name → weight ≥ 0 (finite); at least one leg
     * @throws IllegalArgumentException when empty or a weight is negative or not finite
     */
    public WeightedScoreFusion(Map<String, Double> weights) {
        if (weights.isEmpty()) {
            throw new IllegalArgumentException("weighted score fusion needs at least one leg weight");
        }
        weights.forEach((leg, weight) -> {
            if (weight == null || weight < 0 || Double.isNaN(weight) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException(
                        "weight of leg '" + leg + "' is " + weight + "; it must be a finite number ≥ 0");
            }
        });
        this.weights = Map.copyOf(weights);
    }

    /** @return leg name → weight, unmodifiable */
    public Map<String, Double> weights() {
        return weights;
    }

    @Override
    public List<FusedHit> fuse(Map<String, List<ScoredId>> legs) {
        Map<String, Double> scores = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> ranks = new LinkedHashMap<>();
        legs.forEach((leg, hits) -> {
            Double weight = weights.get(leg);
            if (weight == null) {
                throw new IllegalArgumentException("no weight for recall leg '" + leg + "'; weighted legs are "
                        + weights.keySet().stream().sorted().toList());
            }
            Map<String, Double> firstScores = new LinkedHashMap<>();
            int rank = 0;
            for (ScoredId hit : hits) {
                rank++;
                if (firstScores.putIfAbsent(hit.id(), hit.score()) == null) {
                    ranks.computeIfAbsent(hit.id(), x -> new LinkedHashMap<>()).put(leg, rank);
                }
            }
            double min = firstScores.values().stream()
                    .mapToDouble(Double::doubleValue)
                    .min()
                    .orElse(0);
            double max = firstScores.values().stream()
                    .mapToDouble(Double::doubleValue)
                    .max()
                    .orElse(0);
            firstScores.forEach((id, score) -> {
                double normalised = max > min ? (score - min) / (max - min) : 1.0;
                scores.merge(id, weight * normalised, Double::sum);
            });
        });
        List<FusedHit> hits = new ArrayList<>(scores.size());
        scores.forEach((id, score) -> hits.add(new FusedHit(id, score, ranks.get(id))));
        hits.sort(ReciprocalRankFusion.BEST_FIRST);
        return List.copyOf(hits);
    }
}
