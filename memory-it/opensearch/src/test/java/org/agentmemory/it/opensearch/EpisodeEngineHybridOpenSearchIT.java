package org.agentmemory.it.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.episodic.RecallRequest;
import org.agentmemory.episodic.boundary.EpisodicBeans;
import org.agentmemory.episodic.control.EpisodeEngineHybrid;
import org.agentmemory.episodic.control.EpisodeStore;
import org.agentmemory.episodic.control.TestReflection;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.config.TestSettings;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.embedding.QueryVectors;
import org.agentmemory.platform.ranking.ScoredId;
import org.agentmemory.platform.search.EngineHybrid;
import org.agentmemory.platform.search.EngineHybridBean;
import org.agentmemory.platform.search.EngineHybridBeans;
import org.agentmemory.platform.text.TextNormalization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hybrid episodic recall on the engine (issue 36 item 4) against a real OpenSearch 2.19.1 node with the k-NN and
 * neural-search plugins: {@code EpisodicMemoryBean} with the product's {@code EngineHybridBean} sends one
 * {@code hybrid} query ({@link EpisodeEngineHybrid}) through the service's search pipeline, its vector sub-query a
 * k-NN radial search ({@code min_score}) with a filter.
 *
 * <p>What it proves:
 * <ul>
 * <li>for several queries and both techniques (rrf, weighted) the engine returns the same top episode as
 * client-side fusion, and no query fell back;</li>
 * <li>word-for-word identical episodes of another tenant, user and agent never come back from the engine query
 * itself (before the bean's database re-check), whether only the text or only the vector sub-query matches;</li>
 * <li>an expired episode never comes back, and does come back when judged before its expiry (the range filter is
 * what keeps it out); a category keeps other categories out;</li>
 * <li>radial search works inside a {@code hybrid} sub-query with a filter on 2.19: with a text that matches
 * nothing, exactly the episodes at or above the cosine threshold come back, the same set the client-side vector
 * leg keeps;</li>
 * <li>when the engine query fails (pipeline deleted) the call falls back to client-side fusion.</li>
 * </ul>
 */
@ExtendWith(OpenSearchNode.Resolver.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EpisodeEngineHybridOpenSearchIT {

    private static final MemoryNamespace OWN = new MemoryNamespace("acme", "ops-bot", "ana\"\\*?", null, null, null);
    private static final List<MemoryNamespace> OTHERS = List.of(
            new MemoryNamespace("acme2", "ops-bot", "ana\"\\*?", null, null, null),
            OWN.withUser("ana"),
            OWN.withUser("*"),
            new MemoryNamespace("acme", "ops-bot*", "ana\"\\*?", null, null, null));

    /** situation, action, category, the query that should find it first. */
    private static final String[][] CORPUS = {
        {
            "Deploy of the billing service failed: lock timeout on the invoices table",
            "Ran the database migration at noon while invoices were being written",
            "ERROR_RECOVERY",
            "billing deployment failed with a database lock timeout"
        },
        {
            "Prepared the quarterly sales slides for the marketing team",
            "Exported the charts from the spreadsheet",
            "WORKFLOW_PATTERN",
            "quarterly sales presentation for marketing"
        },
        {
            "The Redis cache evicted most keys during a memory pressure spike",
            "Raised maxmemory and switched the eviction policy to allkeys-lru",
            "ERROR_RECOVERY",
            "redis cache eviction under memory pressure"
        },
        {
            "Rotated the TLS certificate of the payment gateway before it expired",
            "Issued a new certificate with certbot and reloaded nginx",
            "TOOL_EXECUTION",
            "renew the TLS certificate of the payment gateway"
        },
        {
            "A customer asked whether refunds are possible after thirty days",
            "Read the refund policy in the FAQ and quoted the exception for defective goods",
            "QUERY_RESOLUTION",
            "customer question about the refund policy"
        },
    };

    private static final String EXPIRED_SITUATION = "Renewed the DNS zone delegation for the marketing domain";

    private OpenSearchNode node;
    private SearchUnit unit;
    private Settings settings;
    private EmbeddingModel model;
    private SearchUris searchUris;
    private final HttpClient http = HttpClient.newHttpClient();
    /** The own namespace's episodes, in CORPUS order: public ids. */
    private final List<String> own = new ArrayList<>();

    private String expiredId;
    private Instant expiredAt;

    @BeforeAll
    void recordEpisodes(OpenSearchNode node) throws Exception {
        this.node = node;
        searchUris = SearchUris.pointAt(node);
        unit = SearchUnit.start(node);
        settings = TestSettings.of(Map.of("memory.tokenizer", "heuristic"));
        model = settings.embeddingModel();
        EpisodicBeans beans = new EpisodicBeans(unit.emf(), settings, TestReflection.of(Map.of()));
        List<EpisodeInput> inputs = new ArrayList<>();
        for (String[] e : CORPUS) {
            inputs.add(input(OWN, e));
        }
        // Bait: every episode word for word in other namespaces.
        for (MemoryNamespace other : OTHERS) {
            for (String[] e : CORPUS) {
                inputs.add(input(other, e));
            }
        }
        inputs.add(EpisodeInput.builder(
                        OWN, EXPIRED_SITUATION, "Changed the NS records at the registrar", EpisodeOutcome.SUCCESS)
                .ttlDays(1)
                .build());
        List<Episode> recorded = beans.call(memory -> memory.recordEpisodes(inputs));
        assertThat(recorded).hasSize(inputs.size());
        for (int i = 0; i < CORPUS.length; i++) {
            own.add(recorded.get(i).episodeId());
        }
        expiredId = recorded.get(recorded.size() - 1).episodeId();
        // Expire it an hour ago: the entity changes, so Hibernate Search indexes the new expiresAt.
        expiredAt = Instant.now().minus(Duration.ofHours(1));
        unit.inTransaction(em -> {
            org.agentmemory.episodic.entity.Episode e = em.createQuery(
                            "SELECT e FROM Episode e WHERE e.episodeId = :id",
                            org.agentmemory.episodic.entity.Episode.class)
                    .setParameter("id", expiredId)
                    .getSingleResult();
            e.setTimes(e.getCreatedAt(), e.getUpdatedAt(), expiredAt);
            return null;
        });
        assertThat(unit.documentCounts()[0]).isEqualTo(inputs.size());
    }

    private static EpisodeInput input(MemoryNamespace ns, String[] e) {
        return EpisodeInput.builder(ns, e[0], e[1], EpisodeOutcome.SUCCESS)
                .category(EpisodeCategory.valueOf(e[2]))
                .build();
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
    void theEngineReturnsTheSameTopEpisodeAsClientSideFusion() throws Exception {
        for (String fusion : List.of("rrf", "weighted")) {
            Settings fused = TestSettings.of(Map.of("memory.tokenizer", "heuristic", "memory.recall.fusion", fusion));
            EngineHybridBean bean = EngineHybridBeans.started(fused);
            assertThat(bean.decision().engine()).as(bean.decision().detail()).isTrue();
            assertThat(bean.decision().pipeline().technique()).isEqualTo(fusion);
            EpisodicBeans engine = new EpisodicBeans(unit.emf(), fused, TestReflection.of(Map.of()), bean);
            EpisodicBeans clientSide = new EpisodicBeans(unit.emf(), fused, TestReflection.of(Map.of()));
            for (int i = 0; i < CORPUS.length; i++) {
                String query = CORPUS[i][3];
                List<EpisodeSearchResult> onEngine = recall(engine, query, null);
                List<EpisodeSearchResult> fusedHere = recall(clientSide, query, null);
                assertThat(onEngine).as(fusion + ": " + query).isNotEmpty();
                assertThat(onEngine.get(0).episode().episodeId())
                        .as(fusion + ": " + query)
                        .isEqualTo(own.get(i))
                        .isEqualTo(fusedHere.get(0).episode().episodeId());
                assertThat(onEngine)
                        .allSatisfy(r -> assertThat(r.episode().namespace()).isEqualTo(OWN));
            }
            // With a category too: the only tool-execution episode.
            assertThat(recall(engine, CORPUS[3][3], EpisodeCategory.TOOL_EXECUTION))
                    .extracting(r -> r.episode().episodeId())
                    .containsExactly(own.get(3));
            // Still the engine: no query failed on the way.
            assertThat(bean.decision().engine()).as(bean.decision().detail()).isTrue();
        }
    }

    @Test
    void eachSubQueryHoldsNamespaceAndExpiry() {
        EngineHybridBean bean = EngineHybridBeans.started(settings);
        float[] billing = QueryVectors.orNull(model, CORPUS[0][0]);
        float[] unrelated = QueryVectors.orNull(model, "quantum chromodynamics lecture notes");
        Instant now = Instant.now();
        // Only the vector sub-query can match (no word of the corpus); only the text one (no neighbour reaches a cosine
        // of 0.9 with the unrelated vector); both, with radial search.
        for (List<ScoredId> hits : List.of(
                engine(bean, "xylophonist", billing, -1.0, null, now),
                engine(bean, CORPUS[0][0], unrelated, 0.9, null, now),
                engine(bean, CORPUS[0][0], billing, 0.2, null, now))) {
            assertThat(hits).isNotEmpty();
            Map<String, org.agentmemory.episodic.entity.Episode> found = entities(hits);
            assertThat(found.get(hits.get(0).id()).getEpisodeId()).isEqualTo(own.get(0));
            assertThat(found.values()).allSatisfy(e -> {
                assertThat(e.getTenantId()).isEqualTo(OWN.tenantId());
                assertThat(e.getAgentId()).isEqualTo(OWN.agentId());
                assertThat(e.getUserId()).isEqualTo(OWN.userId());
                assertThat(e.getEpisodeId()).isNotEqualTo(expiredId);
            });
        }
        // Only live categories asked for.
        List<ScoredId> errors = engine(
                bean,
                CORPUS[2][3],
                QueryVectors.orNull(model, CORPUS[2][3]),
                -1.0,
                EpisodeCategory.ERROR_RECOVERY,
                now);
        assertThat(entities(errors).values())
                .extracting(org.agentmemory.episodic.entity.Episode::getEpisodeId)
                .containsExactlyInAnyOrder(own.get(0), own.get(2));
    }

    @Test
    void anExpiredEpisodeNeverComesBack() throws Exception {
        EngineHybridBean bean = EngineHybridBeans.started(settings);
        float[] dns = QueryVectors.orNull(model, EXPIRED_SITUATION);
        List<ScoredId> now = engine(bean, EXPIRED_SITUATION, dns, -1.0, null, Instant.now());
        assertThat(entities(now).values())
                .extracting(org.agentmemory.episodic.entity.Episode::getEpisodeId)
                .doesNotContain(expiredId);
        // Judged before it expired, the same query finds it first: the range filter is what keeps it out.
        List<ScoredId> before = engine(bean, EXPIRED_SITUATION, dns, -1.0, null, expiredAt.minusSeconds(60));
        assertThat(entities(before).get(before.get(0).id()).getEpisodeId()).isEqualTo(expiredId);
        EpisodicBeans engine = new EpisodicBeans(unit.emf(), settings, TestReflection.of(Map.of()), bean);
        assertThat(recall(engine, EXPIRED_SITUATION, null))
                .extracting(r -> r.episode().episodeId())
                .doesNotContain(expiredId);
        assertThat(bean.decision().engine()).as(bean.decision().detail()).isTrue();
    }

    @Test
    void radialSearchInTheVectorSubQueryKeepsExactlyTheEpisodesAtOrAboveTheThreshold() {
        EngineHybridBean bean = EngineHybridBeans.started(settings);
        float[] vector = QueryVectors.orNull(model, CORPUS[3][3]);
        Instant now = Instant.now();
        List<ScoredId> cosines =
                unit.read(em -> new EpisodeStore(em).vectorLeg(OWN, model.name(), vector, 50, -1.0, false, now));
        assertThat(cosines).hasSizeGreaterThanOrEqualTo(4);
        int checked = 0;
        for (int n = 1; n <= 3; n++) {
            double above = cosines.get(n - 1).score();
            double below = cosines.get(n).score();
            if (above - below < 1e-3) {
                continue; // too close to tell apart at float precision
            }
            double threshold = (above + below) / 2;
            // The text matches nothing: every hit is the vector sub-query's.
            List<ScoredId> engine = engine(bean, "xylophonist", vector, threshold, null, now);
            List<ScoredId> clientSide = unit.read(
                    em -> new EpisodeStore(em).vectorLeg(OWN, model.name(), vector, 50, threshold, false, now));
            // Radial search is approximate (HNSW traversal may stop early), so it may miss a neighbour, but it never
            // returns one below the threshold; recall therefore keeps thresholded legs client-side (EpisodeRecall).
            assertThat(ids(clientSide)).as("threshold %s", threshold).hasSize(n);
            assertThat(ids(clientSide)).as("threshold %s", threshold).containsAll(ids(engine));
            checked++;
        }
        assertThat(checked).as("thresholds between distinct neighbours").isPositive();
        // Above the best neighbour: nothing.
        assertThat(engine(
                        bean,
                        "xylophonist",
                        vector,
                        Math.min(1.0, cosines.get(0).score() + 0.01),
                        null,
                        now))
                .isEmpty();
    }

    @Test
    void aFailingEngineQueryFallsBackToClientSideFusion() throws Exception {
        Settings weighted = TestSettings.of(Map.of(
                "memory.tokenizer", "heuristic",
                "memory.recall.fusion", "weighted",
                "memory.recall.vector-weight", "0.8",
                "memory.recall.full-text-weight", "0.2"));
        EngineHybridBean bean = EngineHybridBeans.started(weighted);
        String name = bean.decision().pipeline().name();
        HttpResponse<String> deleted = http.send(
                HttpRequest.newBuilder(URI.create(node.uri() + "/_search/pipeline/" + name))
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        EpisodicBeans engine = new EpisodicBeans(unit.emf(), weighted, TestReflection.of(Map.of()), bean);
        List<EpisodeSearchResult> hits = recall(engine, CORPUS[0][3], null);
        assertThat(hits.get(0).episode().episodeId()).isEqualTo(own.get(0));
        assertThat(bean.decision().mode()).isEqualTo(EngineHybrid.CLIENT_SIDE);
        assertThat(bean.decision().detail()).startsWith("an engine hybrid query failed");
    }

    private static List<EpisodeSearchResult> recall(EpisodicBeans beans, String query, EpisodeCategory category)
            throws Exception {
        // Threshold -1: only unthresholded episodic recall runs on the engine (radial search is approximate).
        return beans.call(memory ->
                memory.recallSimilar(new RecallRequest(OWN, query, 10, -1.0, category, false, RecallMode.HYBRID)));
    }

    private List<ScoredId> engine(
            EngineHybridBean bean,
            String query,
            float[] vector,
            double threshold,
            EpisodeCategory category,
            Instant now) {
        assertThat(bean.pipeline()).as(bean.decision().detail()).isNotNull();
        return unit.read(em -> EpisodeEngineHybrid.search(
                em,
                OWN,
                TextNormalization.query(query),
                vector,
                model.name(),
                50,
                threshold,
                category,
                false,
                now,
                bean.pipeline()));
    }

    /** Database id → entity, for hits of the engine query. */
    private Map<String, org.agentmemory.episodic.entity.Episode> entities(List<ScoredId> hits) {
        Map<String, org.agentmemory.episodic.entity.Episode> found = new LinkedHashMap<>();
        unit.read(em -> {
            for (ScoredId hit : hits) {
                found.put(hit.id(), em.find(org.agentmemory.episodic.entity.Episode.class, Long.valueOf(hit.id())));
            }
            return null;
        });
        assertThat(found.values()).doesNotContainNull();
        return found;
    }

    private static List<String> ids(List<ScoredId> hits) {
        return hits.stream().map(ScoredId::id).toList();
    }
}
