package org.agentmemory.it.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.episodic.RecallRequest;
import org.agentmemory.episodic.boundary.EpisodicBeans;
import org.agentmemory.episodic.control.EpisodeMapper;
import org.agentmemory.episodic.control.EpisodeStore;
import org.agentmemory.episodic.control.TestReflection;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.config.TestSettings;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.ranking.ScoredId;
import org.agentmemory.platform.text.TextNormalization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Episodic recall on OpenSearch: the namespace filter holds inside every retrieval leg when Hibernate Search runs on
 * its Elasticsearch backend against a real OpenSearch 2.19.1 node (k-NN plugin, {@code knn_vector} mapped with the
 * lucene engine), with the product's own code end to end: {@code EpisodicMemoryBean} records episodes (heuristic
 * reflection, the product's default in-process embedding model of episodes, all-MiniLM-L6-v2 int8, {@code EpisodeWriterBean}),
 * {@link EpisodeStore#vectorLeg} and {@link EpisodeStore#fullTextLeg} query the index, and
 * {@code EpisodicMemoryBean.recallSimilar} fuses them in hybrid mode (reciprocal rank fusion) and re-checks hits
 * against the database.
 *
 * <p>What it proves:
 * <ul>
 * <li>the legs themselves (before the bean's database re-check, which would hide an index leak) return exactly the
 * querying namespace's episodes: never another user's, tenant's or agent's, even when their content is identical and
 * when the ids contain quotes, backslashes and the wildcards {@code *} and {@code ?} (ids that would match the
 * querying id, or match everything, if a filter treated them as patterns);</li>
 * <li>vector, full-text and hybrid recall through the bean return the namespace's matching episode first;</li>
 * <li>the vector leg's score on OpenSearch converts to the true cosine similarity
 * ({@code Similarity.cosineOfLuceneScore}), so thresholds mean on OpenSearch what they mean on Lucene.</li>
 * </ul>
 */
@ExtendWith(OpenSearchNode.Resolver.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EpisodicRecallOpenSearchIT {

    private OpenSearchNode node;

    private static final String AGENT = "ops-bot";
    /** The querying user: a quote, a backslash and both wildcards. */
    private static final String USER = "al\"ice\\*?";

    private static final MemoryNamespace OWN = new MemoryNamespace("acme", AGENT, USER, null, null, null);

    /** Namespaces that must never leak into {@link #OWN}, nor into each other. */
    private static final List<MemoryNamespace> OTHERS = List.of(
            OWN.withUser("*"),
            OWN.withUser("?"),
            OWN.withUser("al\"ice\\*"),
            OWN.withUser("al\"ice\\*?x"),
            OWN.withUser("al\"ice*x"),
            OWN.withUser("al\"ice\\\\*?"),
            OWN.withUser("AL\"ICE\\*?"),
            OWN.withUser("alice"),
            new MemoryNamespace("acme2", AGENT, USER, null, null, null),
            new MemoryNamespace("acme*", AGENT, USER, null, null, null),
            new MemoryNamespace("acme", AGENT + "*", USER, null, null, null));

    private static final String SITUATION = "Deploy of the billing service failed: lock timeout on the invoices table";
    private static final String ACTION = "Ran the database migration at noon while invoices were being written";
    private static final String QUERY = "billing deployment failed with a database lock timeout";

    private SearchUnit unit;
    private Settings settings;
    private EpisodicBeans beans;
    /** namespace → its episodes' public ids; the first is the billing episode. */
    private final Map<MemoryNamespace, List<String>> stored = new LinkedHashMap<>();

    @BeforeAll
    void recordEpisodes(OpenSearchNode node) throws Exception {
        this.node = node;
        unit = SearchUnit.start(node);
        settings = TestSettings.of(Map.of("memory.tokenizer", "heuristic"));
        beans = new EpisodicBeans(unit.emf(), settings, TestReflection.of(Map.of()));
        List<EpisodeInput> inputs = new ArrayList<>();
        for (MemoryNamespace ns : namespaces()) {
            inputs.add(EpisodeInput.builder(ns, SITUATION, ACTION, EpisodeOutcome.FAILURE)
                    .errorMessage("lock timeout on invoices")
                    .build());
        }
        inputs.add(EpisodeInput.builder(
                        OWN,
                        "Prepared the quarterly sales slides for the marketing team",
                        "Exported the charts from the spreadsheet",
                        EpisodeOutcome.SUCCESS)
                .build());
        List<Episode> recorded = beans.call(memory -> memory.recordEpisodes(inputs));
        for (Episode e : recorded) {
            stored.computeIfAbsent(e.namespace(), k -> new ArrayList<>()).add(e.episodeId());
        }
        assertThat(stored).hasSize(1 + OTHERS.size());
        assertThat(stored.get(OWN)).hasSize(2);
        assertThat(unit.documentCounts()[0]).isEqualTo(inputs.size());
    }

    @AfterAll
    void close() {
        if (unit != null) {
            unit.close();
        }
    }

    private static List<MemoryNamespace> namespaces() {
        List<MemoryNamespace> all = new ArrayList<>();
        all.add(OWN);
        all.addAll(OTHERS);
        return all;
    }

    /** Database id → public id and namespace of every stored episode. */
    private Map<String, org.agentmemory.episodic.entity.Episode> entities() {
        return unit.read(
                em -> em
                        .createQuery("SELECT e FROM Episode e", org.agentmemory.episodic.entity.Episode.class)
                        .getResultList()
                        .stream()
                        .collect(Collectors.toMap(e -> e.getId().toString(), e -> e)));
    }

    private Set<String> publicIds(
            List<ScoredId> hits, Map<String, org.agentmemory.episodic.entity.Episode> byId, MemoryNamespace ns) {
        for (ScoredId hit : hits) {
            org.agentmemory.episodic.entity.Episode e = byId.get(hit.id());
            assertThat(e).as("hit %s is a stored episode", hit.id()).isNotNull();
            assertThat(EpisodeMapper.inNamespace(e, ns))
                    .as(
                            "episode of tenant %s, agent %s, user %s returned to namespace %s",
                            e.getTenantId(), e.getAgentId(), e.getUserId(), ns)
                    .isTrue();
            assertThat(e.getUserId()).isEqualTo(ns.userId());
        }
        return hits.stream().map(h -> byId.get(h.id()).getEpisodeId()).collect(Collectors.toSet());
    }

    @Test
    void vectorLegReturnsExactlyTheNamespacesEpisodesWithTrueCosines() {
        EmbeddingModel model = settings.embeddingModel();
        float[] query = model.embedQuery(TextNormalization.query(QUERY));
        Map<String, org.agentmemory.episodic.entity.Episode> byId = entities();
        Instant now = Instant.now();
        for (MemoryNamespace ns : namespaces()) {
            // minimum similarity -1: everything the filter lets through comes back, so a leak could not hide.
            List<ScoredId> hits =
                    unit.read(em -> new EpisodeStore(em).vectorLeg(ns, model.name(), query, 50, -1.0, false, now));
            assertThat(publicIds(hits, byId, ns))
                    .as("vector leg of %s", ns)
                    .containsExactlyInAnyOrderElementsOf(stored.get(ns));
            assertThat(byId.get(hits.get(0).id()).getEpisodeId())
                    .isEqualTo(stored.get(ns).get(0));
            for (ScoredId hit : hits) {
                float[] v = byId.get(hit.id()).getEmbedding();
                assertThat(hit.score()).as("cosine of %s", hit.id()).isCloseTo(dot(query, v), within(1e-3));
            }
        }
    }

    @Test
    void fullTextLegReturnsOnlyTheNamespacesMatchingEpisodes() {
        Map<String, org.agentmemory.episodic.entity.Episode> byId = entities();
        Instant now = Instant.now();
        for (MemoryNamespace ns : namespaces()) {
            List<ScoredId> hits = unit.read(
                    em -> new EpisodeStore(em).fullTextLeg(ns, TextNormalization.query(QUERY), 50, false, now));
            assertThat(publicIds(hits, byId, ns))
                    .as("full-text leg of %s", ns)
                    .containsExactly(stored.get(ns).get(0));
        }
        // English analysis (OpenSearch's built-in "english"): stemming and stop words, not exact tokens.
        List<ScoredId> stemmed =
                unit.read(em -> new EpisodeStore(em).fullTextLeg(OWN, "the deploying of invoice", 50, false, now));
        assertThat(publicIds(stemmed, byId, OWN))
                .containsExactly(stored.get(OWN).get(0));
        // Ids are not query syntax: a wildcard query text matches nothing, and finds no other namespace.
        List<ScoredId> star = unit.read(em -> new EpisodeStore(em).fullTextLeg(OWN, "*", 50, false, now));
        assertThat(star).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(RecallMode.class)
    void recallThroughTheBeanReturnsTheOwnMatchingEpisodeFirst(RecallMode mode) throws Exception {
        for (MemoryNamespace ns : namespaces()) {
            List<EpisodeSearchResult> results = beans.call(
                    memory -> memory.recallSimilar(new RecallRequest(ns, QUERY, 10, null, null, false, mode)));
            assertThat(results).as("%s recall of %s", mode, ns).isNotEmpty();
            assertThat(results.get(0).episode().episodeId())
                    .isEqualTo(stored.get(ns).get(0));
            assertThat(results)
                    .allSatisfy(r -> assertThat(r.episode().namespace()).isEqualTo(ns));
            assertThat(results).extracting(r -> r.episode().episodeId()).isSubsetOf(stored.get(ns));
        }
    }

    @Test
    void failuresOnlyRecallKeepsTheFilterAndDropsSuccesses() throws Exception {
        for (RecallMode mode : RecallMode.values()) {
            List<EpisodeSearchResult> results = beans.call(memory -> memory.recallSimilar(
                    new RecallRequest(OWN, "quarterly sales slides " + QUERY, 10, -1.0, null, true, mode)));
            assertThat(results)
                    .as("%s failures-only recall", mode)
                    .extracting(r -> r.episode().episodeId())
                    .containsExactly(stored.get(OWN).get(0));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void vectorsAreMappedAsLuceneEngineCosineKnnVectors() {
        Map<String, org.opensearch.cluster.metadata.MappingMetadata> mappings = node.runner()
                .admin()
                .indices()
                .prepareGetMappings(
                        org.agentmemory.episodic.entity.Episode.INDEX + "-read",
                        org.agentmemory.conversation.entity.TurnMessage.INDEX + "-read")
                .get()
                .mappings();
        assertThat(mappings).hasSize(2);
        for (org.opensearch.cluster.metadata.MappingMetadata mapping : mappings.values()) {
            Map<String, Object> properties =
                    (Map<String, Object>) mapping.sourceAsMap().get("properties");
            Map<String, Object> embedding = (Map<String, Object>) properties.get("embedding");
            assertThat(embedding).containsEntry("type", "knn_vector").containsEntry("dimension", 384);
            // 2.19's default engine (faiss) has no native library in the Central plugin zip: lucene it must be.
            assertThat((Map<String, Object>) embedding.get("method"))
                    .containsEntry("engine", "lucene")
                    .containsEntry("space_type", "cosinesimil");
        }
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += (double) a[i] * b[i];
        }
        return sum;
    }
}
