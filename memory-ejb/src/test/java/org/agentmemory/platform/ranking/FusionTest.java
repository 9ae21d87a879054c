package org.agentmemory.platform.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.data.Offset.offset;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FusionTest {

    private static Map<String, List<String>> ranked(List<String> vector, List<String> fullText) {
        Map<String, List<String>> legs = new LinkedHashMap<>();
        legs.put("vector", vector);
        legs.put("full_text", fullText);
        return legs;
    }

    @Test
    void rrfSumsOneOverKPlusRankPerLeg() {
        List<FusedHit> hits =
                new ReciprocalRankFusion().fuseRanked(ranked(List.of("a", "b", "c"), List.of("c", "a", "d")));

        assertThat(hits).extracting(FusedHit::id).containsExactly("a", "c", "b", "d");
        assertThat(hits.get(0).score()).isCloseTo(1.0 / 61 + 1.0 / 62, offset(1e-15)); // 0.0325224748810153
        assertThat(hits.get(1).score()).isCloseTo(1.0 / 63 + 1.0 / 61, offset(1e-15)); // 0.0322664584959667
        assertThat(hits.get(2).score()).isCloseTo(1.0 / 62, offset(1e-15));
        assertThat(hits.get(3).score()).isCloseTo(1.0 / 63, offset(1e-15));
        assertThat(hits.get(0).ranks()).containsExactly(entry("vector", 1), entry("full_text", 2));
        assertThat(hits.get(3).ranks()).containsExactly(entry("full_text", 3));
    }

    @Test
    void rrfKIsConfigurable() {
        List<FusedHit> hits = new ReciprocalRankFusion(1).fuseRanked(ranked(List.of("a", "b"), List.of("b")));
        // a = 1/2, b = 1/3 + 1/2
        assertThat(hits).extracting(FusedHit::id).containsExactly("b", "a");
        assertThat(hits.get(0).score()).isCloseTo(5.0 / 6, offset(1e-15));
        assertThatThrownBy(() -> new ReciprocalRankFusion(0)).hasMessage("RRF k is 0; it must be ≥ 1 (customary: 60)");
    }

    @Test
    void rrfBreaksEqualScoresByBestRankThenId() {
        // k = 1: y1 = z = 1/2 (rank 1), a = 1/4 + 1/4 (ranks 3 and 3), x1 = y2 = 1/3 (rank 2).
        // Equal scores: the better rank first (z before a although "a" < "z"), then the id (y1 before z).
        List<FusedHit> byRank =
                new ReciprocalRankFusion(1).fuseRanked(ranked(List.of("z", "x1", "a"), List.of("y1", "y2", "a")));
        assertThat(byRank).extracting(FusedHit::score).containsExactly(0.5, 0.5, 0.5, 1.0 / 3, 1.0 / 3);
        assertThat(byRank).extracting(FusedHit::id).containsExactly("y1", "z", "a", "x1", "y2");

        // Same score, same best rank: id order.
        List<FusedHit> byId = new ReciprocalRankFusion().fuseRanked(ranked(List.of("b"), List.of("a")));
        assertThat(byId).extracting(FusedHit::id).containsExactly("a", "b");
    }

    @Test
    void rrfCountsOnlyTheFirstOccurrenceInALegAndHandlesEmptyLegs() {
        List<FusedHit> hits = new ReciprocalRankFusion().fuseRanked(ranked(List.of("a", "a", "b"), List.of()));
        assertThat(hits).extracting(FusedHit::id).containsExactly("a", "b");
        assertThat(hits.get(0).score()).isCloseTo(1.0 / 61, offset(1e-15));
        assertThat(hits.get(1).ranks()).containsExactly(entry("vector", 3));
        assertThat(new ReciprocalRankFusion().fuseRanked(Map.of())).isEmpty();
    }

    @Test
    void rrfIgnoresLegScoresAndLimits() {
        Map<String, List<ScoredId>> legs = new LinkedHashMap<>();
        legs.put("vector", List.of(new ScoredId("a", 0.1), new ScoredId("b", 0.9)));
        legs.put("full_text", List.of(new ScoredId("b", 3.0)));
        assertThat(new ReciprocalRankFusion().fuse(legs, 1))
                .extracting(FusedHit::id)
                .containsExactly("b");
        assertThat(new ReciprocalRankFusion().fuse(legs, 5)).hasSize(2);
        assertThatThrownBy(() -> new ReciprocalRankFusion().fuse(legs, -1)).hasMessageContaining("limit is -1");
    }

    @Test
    void weightedFusionNormalisesEachLegByMinMaxAndWeighs() {
        Map<String, List<ScoredId>> legs = new LinkedHashMap<>();
        legs.put("vector", List.of(new ScoredId("a", 0.9), new ScoredId("b", 0.7), new ScoredId("c", 0.5)));
        legs.put("full_text", List.of(new ScoredId("c", 12.0), new ScoredId("a", 6.0), new ScoredId("d", 2.0)));
        List<FusedHit> hits = new WeightedScoreFusion(Map.of("vector", 0.6, "full_text", 0.4)).fuse(legs);

        // a = 0.6·1 + 0.4·0.4 = 0.76; c = 0.6·0 + 0.4·1 = 0.4; b = 0.6·0.5 = 0.3; d = 0.4·0 = 0
        assertThat(hits).extracting(FusedHit::id).containsExactly("a", "c", "b", "d");
        assertThat(hits.get(0).score()).isCloseTo(0.76, offset(1e-12));
        assertThat(hits.get(1).score()).isCloseTo(0.4, offset(1e-12));
        assertThat(hits.get(2).score()).isCloseTo(0.3, offset(1e-12));
        assertThat(hits.get(3).score()).isZero();
        assertThat(hits.get(0).ranks()).containsExactly(entry("vector", 1), entry("full_text", 2));
    }

    @Test
    void weightedFusionGivesEqualScoresInALegFullWeight() {
        Map<String, List<ScoredId>> legs = new LinkedHashMap<>();
        legs.put("vector", List.of(new ScoredId("b", 0.8), new ScoredId("a", 0.8)));
        List<FusedHit> hits = new WeightedScoreFusion(Map.of("vector", 0.6, "full_text", 0.4)).fuse(legs);
        assertThat(hits).extracting(FusedHit::id).containsExactly("b", "a");
        assertThat(hits).extracting(FusedHit::score).containsOnly(0.6);
    }

    @Test
    void weightedFusionRejectsUnknownLegsAndBadWeights() {
        WeightedScoreFusion fusion = new WeightedScoreFusion(Map.of("vector", 0.6, "full_text", 0.4));
        assertThatThrownBy(() -> fusion.fuse(Map.of("bm25", List.of(new ScoredId("a", 1)))))
                .hasMessage("no weight for recall leg 'bm25'; weighted legs are [full_text, vector]");
        assertThatThrownBy(() -> new WeightedScoreFusion(Map.of("vector", -0.1)))
                .hasMessage("weight of leg 'vector' is -0.1; it must be a finite number ≥ 0");
        assertThatThrownBy(() -> new WeightedScoreFusion(Map.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
