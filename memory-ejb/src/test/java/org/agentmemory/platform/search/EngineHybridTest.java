package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.agentmemory.platform.ranking.HybridPipeline;
import org.junit.jupiter.api.Test;

class EngineHybridTest {

    @Test
    void neuralSearchCountsByInstalledNameOrByClassPathPluginClass() {
        String cat = """
                aB3x opensearch-knn
                aB3x opensearch-neural-search
                Zz9q org.opensearch.knn.plugin.KNNPlugin
                Zz9q org.opensearch.neuralsearch.plugin.NeuralSearch
                Qq1w opensearch-knn
                """;
        assertThat(EngineHybrid.nodesWithNeuralSearch(cat)).containsExactlyInAnyOrder("aB3x", "Zz9q");
    }

    @Test
    void anUnreachableClusterIsClientSideAndAskedAgainLater() {
        EngineHybrid.Decision decision =
                EngineHybrid.detect("http://127.0.0.1:1", null, null, HybridPipeline.rrf(10), Duration.ofMillis(500));
        assertThat(decision.engine()).isFalse();
        assertThat(decision.mode()).isEqualTo(EngineHybrid.CLIENT_SIDE);
        assertThat(decision.unreachable()).isTrue();
        assertThat(decision.pipeline()).isNull();
    }
}
