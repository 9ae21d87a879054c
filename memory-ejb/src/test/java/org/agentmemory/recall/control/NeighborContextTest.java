package org.agentmemory.recall.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import java.util.Map;
import org.agentmemory.platform.ranking.FusedHit;
import org.junit.jupiter.api.Test;

class NeighborContextTest {

    // id -> (conversation, ordinal): a1..a4 are consecutive messages of conversation 1, b2 is in conversation 2.
    private static final Map<String, NeighborContext.Position> POSITIONS = Map.of(
            "a1",
            new NeighborContext.Position(1, 1),
            "a2",
            new NeighborContext.Position(1, 2),
            "a3",
            new NeighborContext.Position(1, 3),
            "a4",
            new NeighborContext.Position(1, 4),
            "b2",
            new NeighborContext.Position(2, 2),
            "a9",
            new NeighborContext.Position(1, 9));

    private static FusedHit hit(String id, double score) {
        return new FusedHit(id, score, Map.of("vector", 1));
    }

    @Test
    void aMessageGainsAShareOfItsBestAdjacentMessage() {
        List<FusedHit> fused =
                List.of(hit("a9", 0.50), hit("a2", 0.45), hit("a3", 0.30), hit("b2", 0.20), hit("a1", 0.10));
        List<FusedHit> out = NeighborContext.apply(fused, POSITIONS::get, 0.5);
        // a3: 0.30 + 0.5 × max(a2 0.45, a4 absent 0) = 0.525; a2: 0.45 + 0.5 × max(a1 0.10, a3 0.30) = 0.60;
        // a1: 0.10 + 0.5 × 0.45 = 0.325; a9 has no neighbour; b2 is in another conversation than a1/a3.
        assertThat(out).extracting(FusedHit::id).containsExactly("a2", "a3", "a9", "a1", "b2");
        assertThat(out.get(0).score()).isCloseTo(0.60, offset(1e-12));
        assertThat(out.get(1).score()).isCloseTo(0.525, offset(1e-12));
        assertThat(out.get(2).score()).isCloseTo(0.50, offset(1e-12));
        assertThat(out.get(3).score()).isCloseTo(0.325, offset(1e-12));
        assertThat(out.get(4).score()).isCloseTo(0.20, offset(1e-12));
        assertThat(out.get(0).ranks()).isEqualTo(Map.of("vector", 1));
    }

    @Test
    void weightZeroKeepsTheFusedOrderAndTiesKeepIt() {
        List<FusedHit> fused = List.of(hit("a2", 0.4), hit("a3", 0.3), hit("a1", 0.3));
        assertThat(NeighborContext.apply(fused, POSITIONS::get, 0)).isEqualTo(fused);
        // a2 gains 0.15 (0.55); a1 and a3 both gain 0.2 from a2 (0.5 each): tied, so the fused order (a3, a1) stays.
        assertThat(NeighborContext.apply(fused, POSITIONS::get, 0.5))
                .extracting(FusedHit::id)
                .containsExactly("a2", "a3", "a1");
        assertThat(NeighborContext.apply(List.of(), POSITIONS::get, 0.5)).isEmpty();
    }

    @Test
    void theWeightMustBeBetweenZeroAndOne() {
        assertThatThrownBy(() -> NeighborContext.apply(List.of(), POSITIONS::get, 1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 0 and 1");
        assertThatThrownBy(() -> NeighborContext.apply(List.of(), POSITIONS::get, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
