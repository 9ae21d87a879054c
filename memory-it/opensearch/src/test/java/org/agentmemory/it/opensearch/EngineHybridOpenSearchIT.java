package org.agentmemory.it.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.recall.MessageHit;
import org.agentmemory.api.recall.MessageRecallRequest;
import org.agentmemory.conversation.boundary.ConversationBeans;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.config.TestSettings;
import org.agentmemory.platform.embedding.QueryVectors;
import org.agentmemory.platform.search.EngineHybrid;
import org.agentmemory.platform.search.EngineHybridBean;
import org.agentmemory.platform.search.EngineHybridBeans;
import org.agentmemory.recall.boundary.RecallBeans;
import org.agentmemory.recall.control.MessageEngineHybrid;
import org.agentmemory.recall.control.MessageSearch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hybrid conversation recall on the engine (issue 36 item 4) against a real OpenSearch 2.19.1 node with the k-NN and
 * neural-search plugins: the product's {@code EngineHybridBean} detects the plugin and creates its search pipeline;
 * {@code ConversationRecallBean} then sends one {@code hybrid} query through it (Hibernate Search's Elasticsearch
 * extension), each sub-query filtered by the scope.
 *
 * <p>What it proves:
 * <ul>
 * <li>the plugin is detected, the pipeline exists on the cluster, and the decision is published for readiness;</li>
 * <li>hybrid recall through the engine returns the right message first, for both techniques (rrf, weighted);</li>
 * <li>word-for-word identical messages of other users and of another tenant never come back, even when only the
 * vector sub-query or only the full-text sub-query can match (each sub-query holds the scope filter);</li>
 * <li>with {@code memory.search.engine-hybrid=off} hybrid recall is client-side and still right; and when the
 * engine query fails (the pipeline deleted behind the service's back) the call falls back to client-side fusion and
 * the decision says so.</li>
 * </ul>
 * A node without the plugin is not started here (one node per test JVM): {@code EngineHybridTest} covers an
 * unreachable cluster; the plugin listing itself is read by {@code EngineHybrid.nodesWithNeuralSearch}.
 */
@ExtendWith(OpenSearchNode.Resolver.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineHybridOpenSearchIT {

    private static final String TENANT = ConversationKey.DEFAULT_TENANT;
    private static final String USER = "ana\"\\*?";
    private static final List<String> OTHER_USERS = List.of("ana", "*", "ANA\"\\*?");
    private static final String OTHER_TENANT = "other-tenant";

    private static final String[][] TURNS = {
        {"h-1", "My sister Maria moved to Lisbon last spring", "Lisbon is lovely in spring; did she find a flat?"},
        {"h-2", "What should I cook for dinner tonight?", "Try a mushroom risotto with parmesan and thyme."},
        {"h-3", "We adopted a golden retriever puppy called Biscuit", "Puppies need lots of sleep and short walks."},
        {"h-4", "My car's battery died again this morning", "A battery older than five years is worth replacing."},
        {"h-5", "I started learning the cello in September", "Daily practice of twenty minutes helps beginners."},
    };

    private OpenSearchNode node;
    private SearchUnit unit;
    private Settings settings;
    private SearchUris searchUris;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void writeCorpus(OpenSearchNode node) throws Exception {
        this.node = node;
        searchUris = SearchUris.pointAt(node);
        unit = SearchUnit.start(node);
        settings = TestSettings.of(Map.of("memory.tokenizer", "heuristic", "memory.recall.embedding", "inline"));
        ConversationBeans conversations = new ConversationBeans(unit.emf(), settings);
        for (String[] turn : TURNS) {
            conversations.inTransaction(m -> m.addTurn(
                    new ConversationKey(TENANT, "helper", USER, "s-1"), TurnRecord.of(turn[0], turn[1], turn[2])));
        }
        // Bait: word for word the same first turn in other users' and another tenant's conversations.
        for (String other : OTHER_USERS) {
            conversations.inTransaction(m -> m.addTurn(
                    new ConversationKey(TENANT, "helper", other, "s-1"),
                    TurnRecord.of(TURNS[0][0], TURNS[0][1], TURNS[0][2])));
        }
        conversations.inTransaction(m -> m.addTurn(
                new ConversationKey(OTHER_TENANT, "helper", USER, "s-1"),
                TurnRecord.of(TURNS[0][0], TURNS[0][1], TURNS[0][2])));
        assertThat(unit.documentCounts()[1]).isEqualTo(2L * (TURNS.length + OTHER_USERS.size() + 1));
    }

    @AfterAll
    void close() {
        if (searchUris != null) {
            searchUris.close();
        }
        if (unit != null) {
            unit.close();
        }
    }

    @Test
    void detectsThePluginCreatesThePipelineAndPublishesTheDecision() throws Exception {
        EngineHybridBean bean = EngineHybridBeans.started(settings);
        EngineHybrid.Decision decision = bean.decision();
        assertThat(decision.mode()).as(decision.detail()).isEqualTo(EngineHybrid.ENGINE);
        assertThat(decision.pipeline().technique()).isEqualTo("rrf");
        assertThat(decision.pipeline().rankConstant()).isEqualTo(10);
        HttpResponse<String> pipeline =
                get("/_search/pipeline/" + decision.pipeline().name());
        assertThat(pipeline.statusCode()).isEqualTo(200);
        assertThat(pipeline.body()).contains("score-ranker-processor").contains("\"rank_constant\":10");
        assertThat(System.getProperty(EngineHybrid.MODE_PROPERTY)).isEqualTo("engine");
        assertThat(System.getProperty(EngineHybrid.DETAIL_PROPERTY))
                .contains(decision.pipeline().name());
    }

    @Test
    void hybridRecallOnTheEngineFindsTheRightMessageAndNothingOutOfScope() throws Exception {
        for (String fusion : List.of("rrf", "weighted")) {
            Settings fused = TestSettings.of(Map.of(
                    "memory.tokenizer",
                    "heuristic",
                    "memory.recall.embedding",
                    "inline",
                    "memory.recall.fusion",
                    fusion));
            EngineHybridBean bean = EngineHybridBeans.started(fused);
            assertThat(bean.decision().engine()).as(bean.decision().detail()).isTrue();
            assertThat(bean.decision().pipeline().technique()).isEqualTo(fusion);
            RecallBeans recall = new RecallBeans(unit.emf(), fused, bean);
            assertTopHit(recall, "Maria moved to Lisbon", "h-1");
            assertTopHit(recall, "Which city does my sister live in now?", "h-1");
            assertTopHit(recall, "mushroom risotto recipe", "h-2");
            assertTopHit(recall, "my dog Biscuit", "h-3");
            assertTopHit(recall, "car battery", "h-4");
            // Still the engine: no query failed on the way.
            assertThat(bean.decision().engine()).as(bean.decision().detail()).isTrue();
        }
    }

    @Test
    void eachSubQueryHoldsTheScopeFilter() {
        EngineHybridBean bean = EngineHybridBeans.started(settings);
        MessageSearch.Scope scope = MessageSearch.Scope.of(TENANT, USER, null, null);
        float[] lisbon = QueryVectors.orNull(settings.messageEmbeddingModel(), TURNS[0][1]);
        float[] unrelated = QueryVectors.orNull(settings.messageEmbeddingModel(), "quantum chromodynamics lecture");
        // Only the vector sub-query can match (no word of the corpus), and its nearest neighbours are the bait.
        List<MessageSearch.Hit> vectorOnly =
                unit.read(em -> MessageEngineHybrid.search(em, scope, "xylophonist", lisbon, 50, bean.pipeline()));
        // The full-text sub-query matches the bait word for word; the vector points elsewhere.
        List<MessageSearch.Hit> textOnly = unit.read(em ->
                MessageEngineHybrid.search(em, scope, "sister Maria moved to Lisbon", unrelated, 50, bean.pipeline()));
        for (List<MessageSearch.Hit> hits : List.of(vectorOnly, textOnly)) {
            assertThat(hits).isNotEmpty();
            assertThat(hits.get(0).hit().turnId()).isEqualTo("h-1");
            assertThat(hits.get(0).hit().content()).isEqualTo(TURNS[0][1]);
            // Ten messages in scope: all of them at most, and no one else's.
            assertThat(hits).hasSizeLessThanOrEqualTo(2 * TURNS.length);
            assertThat(hits).allSatisfy(h -> assertThat(h.hit().userId()).isEqualTo(USER));
        }
        assertThat(conversations(vectorOnly)).hasSize(1);
        assertThat(conversations(textOnly)).isEqualTo(conversations(vectorOnly));
    }

    @Test
    void settingOffKeepsClientSideFusion() throws Exception {
        Settings off = TestSettings.of(Map.of(
                "memory.tokenizer",
                "heuristic",
                "memory.recall.embedding",
                "inline",
                "memory.search.engine-hybrid",
                "off"));
        EngineHybridBean bean = EngineHybridBeans.started(off);
        assertThat(bean.decision().mode()).isEqualTo(EngineHybrid.CLIENT_SIDE);
        assertThat(bean.decision().detail()).contains("memory.search.engine-hybrid is off");
        assertThat(bean.pipeline()).isNull();
        assertTopHit(new RecallBeans(unit.emf(), off, bean), "Maria moved to Lisbon", "h-1");
    }

    @Test
    void aFailingEngineQueryFallsBackToClientSideFusion() throws Exception {
        Settings weighted = TestSettings.of(Map.of(
                "memory.tokenizer", "heuristic",
                "memory.recall.embedding", "inline",
                "memory.recall.fusion", "weighted",
                "memory.recall.vector-weight", "0.9",
                "memory.recall.full-text-weight", "0.1"));
        EngineHybridBean bean = EngineHybridBeans.started(weighted);
        String name = bean.decision().pipeline().name();
        HttpResponse<String> deleted = http.send(
                HttpRequest.newBuilder(URI.create(node.uri() + "/_search/pipeline/" + name))
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertTopHit(new RecallBeans(unit.emf(), weighted, bean), "Maria moved to Lisbon", "h-1");
        assertThat(bean.decision().mode()).isEqualTo(EngineHybrid.CLIENT_SIDE);
        assertThat(bean.decision().detail()).startsWith("an engine hybrid query failed");
        assertThat(bean.pipeline()).isNull(); // until the retry period has passed
    }

    private void assertTopHit(RecallBeans recall, String query, String turnId) throws Exception {
        List<MessageHit> hits =
                recall.searchMessages(new MessageRecallRequest(TENANT, USER, null, null, query, RecallMode.HYBRID, 10));
        assertThat(hits).as(query).isNotEmpty();
        assertThat(hits.get(0).turnId()).as(query).isEqualTo(turnId);
        assertThat(hits).as(query).hasSizeLessThanOrEqualTo(2 * TURNS.length);
        assertThat(hits).allSatisfy(h -> assertThat(h.userId()).isEqualTo(USER));
        assertThat(hits.stream().map(MessageHit::conversationId).distinct()).hasSize(1);
    }

    private static List<Long> conversations(List<MessageSearch.Hit> hits) {
        return hits.stream().map(h -> h.hit().conversationId()).distinct().toList();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(node.uri() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
