package org.agentmemory.platform.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HybridQueryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode parse(String json) throws Exception {
        return JSON.readTree(json);
    }

    private static final Map<String, Object> SCOPE =
            HybridQuery.scope("tenantId", "t\"1", "userId", "bob\\*?", "chatbotKey", null, "conversationId", 42L);

    @Test
    void everySubQueryHoldsTheWholeScopeFilter() throws Exception {
        JsonNode queries = parse(
                        HybridQuery.of("searchText", "Maria moved", "embedding", new float[] {0.5f, -0.25f}, 50, SCOPE))
                .path("hybrid")
                .path("queries");
        assertThat(queries).hasSize(2);
        JsonNode text = queries.get(0).path("bool");
        JsonNode knn = queries.get(1).path("knn").path("embedding");
        List<JsonNode> expected = List.of(
                parse("{\"term\":{\"tenantId\":\"t\\\"1\"}}"),
                parse("{\"term\":{\"userId\":\"bob\\\\*?\"}}"),
                parse("{\"term\":{\"conversationId\":42}}"));
        assertThat(list(text.path("filter"))).containsExactlyElementsOf(expected);
        assertThat(list(knn.path("filter").path("bool").path("filter"))).containsExactlyElementsOf(expected);
        assertThat(text.path("must")
                        .get(0)
                        .path("match")
                        .path("searchText")
                        .path("query")
                        .asText())
                .isEqualTo("Maria moved");
        assertThat(knn.path("k").asInt()).isEqualTo(50);
        assertThat(list(knn.path("vector"))).extracting(JsonNode::floatValue).containsExactly(0.5f, -0.25f);
    }

    @Test
    void aPaginationDepthBoundsEachSubQueryAndIsLeftOutWhenZero() throws Exception {
        float[] v = {0.5f, -0.25f};
        JsonNode deep = parse(HybridQuery.of(
                List.of("searchText"),
                "q",
                "embedding",
                v,
                HybridQuery.Neighbours.nearest(60),
                HybridQuery.Filter.of(Map.of("tenantId", "t")),
                50));
        assertThat(deep.at("/hybrid/pagination_depth").asInt()).isEqualTo(50);
        assertThat(deep.at("/hybrid/queries").size()).isEqualTo(2);
        JsonNode plain = parse(HybridQuery.of(
                List.of("searchText"),
                "q",
                "embedding",
                v,
                HybridQuery.Neighbours.nearest(60),
                HybridQuery.Filter.of(Map.of("tenantId", "t")),
                0));
        assertThat(plain.at("/hybrid/pagination_depth").isMissingNode()).isTrue();
        assertThatThrownBy(() -> HybridQuery.of(
                        List.of("f"),
                        "q",
                        "v",
                        v,
                        HybridQuery.Neighbours.nearest(1),
                        HybridQuery.Filter.of(Map.of("tenantId", "t")),
                        -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pagination depth");
    }

    @Test
    void absentScopeValuesAreNoFilterAndTheOrderIsKept() {
        assertThat(SCOPE)
                .containsExactly(
                        Map.entry("tenantId", "t\"1"),
                        Map.entry("userId", "bob\\*?"),
                        Map.entry("conversationId", 42L));
    }

    @Test
    void controlCharactersInTheQueryAreEscaped() throws Exception {
        String json = HybridQuery.of("f", "a\nb\u0001\"", "v", new float[] {1}, 1, Map.of("tenantId", "t"));
        assertThat(parse(json).at("/hybrid/queries/0/bool/must/0/match/f/query").asText())
                .isEqualTo("a\nb\u0001\"");
    }

    @Test
    void refusesAQueryWithoutScopeOrWithABadVector() {
        assertThatThrownBy(() -> HybridQuery.of("f", "q", "v", new float[] {1}, 5, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scope");
        assertThatThrownBy(() -> HybridQuery.of("f", "q", "v", new float[] {Float.NaN}, 5, Map.of("tenantId", "t")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("component 0");
        assertThatThrownBy(() -> HybridQuery.of("f", "q", "v", new float[] {1}, 0, Map.of("tenantId", "t")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rawClausesAndTermsAreInBothSubQueriesAndVectorTermsOnlyInTheVectorOne() throws Exception {
        String expiry = "{\"bool\":{\"must_not\":[{\"range\":{\"expiresAt\":{\"lt\":1000}}}]}}";
        HybridQuery.Filter filter = new HybridQuery.Filter(
                HybridQuery.scope("tenantId", "t", "agentId", "a", "category", "tool_usage", "failure", true),
                List.of(expiry),
                Map.of("embeddingModel", "m-1"));
        JsonNode queries = parse(HybridQuery.of(
                        List.of("situation", "actionTaken", "lessonLearned"),
                        "disk full",
                        "embedding",
                        new float[] {1f, 0f},
                        HybridQuery.Neighbours.within(0.85),
                        filter))
                .path("hybrid")
                .path("queries");
        assertThat(queries).hasSize(2);
        JsonNode text = queries.get(0).path("bool");
        JsonNode knn = queries.get(1).path("knn").path("embedding");
        List<JsonNode> both = List.of(
                parse("{\"term\":{\"tenantId\":\"t\"}}"),
                parse("{\"term\":{\"agentId\":\"a\"}}"),
                parse("{\"term\":{\"category\":\"tool_usage\"}}"),
                parse("{\"term\":{\"failure\":true}}"),
                parse(expiry));
        assertThat(list(text.path("filter"))).containsExactlyElementsOf(both);
        List<JsonNode> vector = new ArrayList<>(both);
        vector.add(parse("{\"term\":{\"embeddingModel\":\"m-1\"}}"));
        assertThat(list(knn.path("filter").path("bool").path("filter"))).containsExactlyElementsOf(vector);
        // Radial search: min_score, no k.
        assertThat(knn.path("min_score").asDouble()).isEqualTo(0.85);
        assertThat(knn.has("k")).isFalse();
        // Several text fields: any of them matches, as Hibernate Search sends a multi-field match.
        JsonNode should = text.path("must").get(0).path("bool").path("should");
        assertThat(list(should))
                .extracting(m -> m.path("match").fieldNames().next())
                .containsExactly("situation", "actionTaken", "lessonLearned");
        assertThat(list(should))
                .allSatisfy(m -> assertThat(
                                m.path("match").elements().next().path("query").asText())
                        .isEqualTo("disk full"));
    }

    @Test
    void theOldOverloadSendsTheSameJsonAsTheNewOneWithOneFieldAndKNeighbours() {
        assertThat(HybridQuery.of("searchText", "q", "embedding", new float[] {0.5f}, 7, SCOPE))
                .isEqualTo(HybridQuery.of(
                        List.of("searchText"),
                        "q",
                        "embedding",
                        new float[] {0.5f},
                        HybridQuery.Neighbours.nearest(7),
                        HybridQuery.Filter.of(SCOPE)))
                .contains("\"k\":7")
                .doesNotContain("min_score")
                .doesNotContain("should");
    }

    @Test
    void neighboursAreEitherKOrAPositiveMinScore() {
        assertThatThrownBy(() -> HybridQuery.Neighbours.within(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HybridQuery.Neighbours.within(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HybridQuery.Neighbours(5, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HybridQuery.of(
                        List.of(),
                        "q",
                        "v",
                        new float[] {1},
                        HybridQuery.Neighbours.nearest(1),
                        HybridQuery.Filter.of(SCOPE)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("text field");
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }
}
