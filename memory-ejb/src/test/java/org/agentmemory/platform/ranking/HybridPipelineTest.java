package org.agentmemory.platform.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class HybridPipelineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void rrfIsTheScoreRankerWithTheConfiguredRankConstant() throws Exception {
        JsonNode processors = JSON.readTree(HybridPipeline.rrf(10).body()).path("phase_results_processors");
        assertThat(processors).hasSize(1);
        JsonNode combination = processors.get(0).path("score-ranker-processor").path("combination");
        assertThat(combination.path("technique").asText()).isEqualTo("rrf");
        // neural-search 2.19 reads it from combination.parameters only; directly under combination it is
        // ignored and the processor fuses with 60.
        assertThat(combination.path("parameters").path("rank_constant").asInt()).isEqualTo(10);
        assertThat(combination.has("rank_constant")).isFalse();
    }

    @Test
    void weightedIsMinMaxAndAWeightedMeanInTheOrderFullTextThenVector() throws Exception {
        JsonNode processor = JSON.readTree(HybridPipeline.weighted(0.4, 0.6).body())
                .path("phase_results_processors")
                .get(0)
                .path("normalization-processor");
        assertThat(processor.path("normalization").path("technique").asText()).isEqualTo("min_max");
        assertThat(processor.path("combination").path("technique").asText()).isEqualTo("arithmetic_mean");
        JsonNode weights = processor.path("combination").path("parameters").path("weights");
        assertThat(weights.get(0).asDouble()).isEqualTo(0.4);
        assertThat(weights.get(1).asDouble()).isEqualTo(0.6);
    }

    @Test
    void weightsAreScaledToSumOne() throws Exception {
        HybridPipeline pipeline = HybridPipeline.weighted(1, 2);
        JsonNode weights = JSON.readTree(pipeline.body())
                .at("/phase_results_processors/0/normalization-processor" + "/combination/parameters/weights");
        assertThat(weights.get(0).asDouble() + weights.get(1).asDouble())
                .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(weights.get(0).asDouble()).isEqualTo(0.3333);
        assertThat(HybridPipeline.weighted(0, 0).fullTextWeight()).isEqualTo(0.5);
        assertThat(HybridPipeline.weighted(0, 3).vectorWeight()).isEqualTo(1.0);
    }

    @Test
    void theNameDependsOnTheBodySoDifferentSettingsNeverShareAPipeline() {
        assertThat(HybridPipeline.rrf(10).name())
                .startsWith("agent-memory-hybrid-rrf-")
                .hasSize(32);
        assertThat(HybridPipeline.rrf(10).name())
                .isEqualTo(HybridPipeline.rrf(10).name());
        assertThat(HybridPipeline.rrf(10).name())
                .isNotEqualTo(HybridPipeline.rrf(60).name());
        assertThat(HybridPipeline.weighted(0.4, 0.6).name())
                .startsWith("agent-memory-hybrid-weighted-")
                .isNotEqualTo(HybridPipeline.weighted(0.5, 0.5).name());
    }

    @Test
    void refusesUnknownTechniquesAndBadNumbers() {
        assertThatThrownBy(() -> new HybridPipeline("sum", 60, 0.5, 0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rrf or weighted");
        assertThatThrownBy(() -> HybridPipeline.rrf(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HybridPipeline.weighted(-1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HybridPipeline.weighted(Double.POSITIVE_INFINITY, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
