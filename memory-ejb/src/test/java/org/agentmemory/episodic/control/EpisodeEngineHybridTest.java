package org.agentmemory.episodic.control;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.platform.ranking.HybridQuery;
import org.junit.jupiter.api.Test;

class EpisodeEngineHybridTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final MemoryNamespace NAMESPACE = new MemoryNamespace("t-1", "agent", "ana", "s-1", null, null);

    @Test
    void bothSubQueriesHoldNamespaceCategoryFailureAndExpiry() throws Exception {
        Instant now = Instant.parse("2026-12-06T20:00:00.123456Z");
        HybridQuery.Filter filter =
                EpisodeEngineHybrid.filter(NAMESPACE, "model-1", EpisodeCategory.values()[0], true, now);
        JsonNode queries = JSON.readTree(HybridQuery.of(
                        EpisodeEngineHybrid.TEXT_FIELDS,
                        "disk full",
                        "embedding",
                        new float[] {1f},
                        EpisodeEngineHybrid.neighbours(0.6, 10),
                        filter))
                .path("hybrid")
                .path("queries");
        List<String> text = texts(queries.get(0).path("bool").path("filter"));
        List<String> vector = texts(queries.get(1).at("/knn/embedding/filter/bool/filter"));
        List<String> scope = List.of(
                "{\"term\":{\"tenantId\":\"t-1\"}}",
                "{\"term\":{\"agentId\":\"agent\"}}",
                "{\"term\":{\"userId\":\"ana\"}}",
                "{\"term\":{\"sessionId\":\"s-1\"}}",
                "{\"term\":{\"category\":\"" + EpisodeCategory.values()[0].value() + "\"}}",
                "{\"term\":{\"failure\":true}}",
                "{\"bool\":{\"must_not\":[{\"range\":{\"expiresAt\":{\"lt\":" + now.toEpochMilli()
                        + ",\"format\":\"epoch_millis\"}}}]}}");
        assertThat(text).containsExactlyElementsOf(scope);
        List<String> vectorScope = new ArrayList<>(scope);
        vectorScope.add("{\"term\":{\"embeddingModel\":\"model-1\"}}");
        assertThat(vector).containsExactlyElementsOf(vectorScope);
    }

    @Test
    void noCategoryAndAllEpisodesLeaveThoseTermsOut() {
        HybridQuery.Filter filter =
                EpisodeEngineHybrid.filter(MemoryNamespace.of("t-1", "agent"), "m", null, false, Instant.EPOCH);
        assertThat(filter.terms()).containsOnlyKeys("tenantId", "agentId");
        assertThat(filter.clauses()).hasSize(1);
    }

    @Test
    void theCosineThresholdBecomesTheLuceneCosineScoreOfRadialSearch() {
        // OpenSearch's lucene engine scores cosinesimil as (1 + cos) / 2.
        assertThat(EpisodeEngineHybrid.neighbours(0.6, 10).minScore()).isEqualTo(0.8);
        assertThat(EpisodeEngineHybrid.neighbours(0.6, 10).k()).isZero();
        assertThat(EpisodeEngineHybrid.neighbours(-0.5, 10).minScore()).isEqualTo(0.25);
        // A threshold of -1 keeps every neighbour: the k nearest, as the client-side leg asks for.
        assertThat(EpisodeEngineHybrid.neighbours(-1.0, 10).k()).isEqualTo(50);
        assertThat(EpisodeEngineHybrid.neighbours(-1.0, 80).k()).isEqualTo(80);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.toString()));
        return out;
    }
}
