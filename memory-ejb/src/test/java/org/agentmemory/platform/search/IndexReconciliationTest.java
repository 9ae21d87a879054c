package org.agentmemory.platform.search;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.episodic.control.EpisodeMapper;
import org.agentmemory.episodic.entity.Episode;
import org.agentmemory.testsupport.Databases;
import org.agentmemory.testsupport.FakeEmbeddingModel;
import org.hibernate.search.mapper.orm.Search;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index reconciliation on a real H2 database and a real Lucene index: the three ways a crash leaves an index
 * behind its database (a committed row never indexed, a row changed after it was indexed, a row deleted while its
 * document stayed) are each repaired, nothing else is touched, and a second run finds nothing.
 */
class IndexReconciliationTest {

    @TempDir
    Path indexes;

    private EntityManagerFactory emf;
    private final FakeEmbeddingModel model = new FakeEmbeddingModel("fake-a");

    @BeforeEach
    void start() {
        Map<String, Object> props = new HashMap<>();
        props.put("jakarta.persistence.nonJtaDataSource", Databases.freshH2());
        props.put("hibernate.search.enabled", "true");
        props.put("hibernate.search.backend.directory.root", indexes.toString());
        props.put(
                "hibernate.search.mapping.configurer",
                "class:org.agentmemory.conversation.entity.TurnMessageVectorField,class:org.agentmemory.episodic.entity.EpisodeVectorField");
        props.put(
                "hibernate.search.backend.analysis.configurer",
                "class:org.agentmemory.platform.search.EnglishAnalysisConfigurer");
        props.put("hibernate.search.indexing.plan.synchronization.strategy", "sync");
        emf = Persistence.createEntityManagerFactory("memory-hibernate", props);
    }

    @AfterEach
    void stop() {
        emf.close();
    }

    private <T> T inTx(Function<EntityManager, T> work) {
        return Databases.inTransaction(emf, work);
    }

    private void inTxUnindexed(Consumer<EntityManager> work) {
        inTx(em -> {
            Search.session(em)
                    .indexingPlanFilter(ctx -> ctx.exclude(Object.class)); // a write whose index work was lost
            work.accept(em);
            return null;
        });
    }

    private IndexReconciliation reconciliation() {
        return new IndexReconciliation(
                work -> inTx(em -> {
                    work.accept(em);
                    return null;
                }),
                Search.mapping(emf));
    }

    private List<Long> messages(String... texts) {
        Instant now = Instant.parse("2026-12-04T12:00:00Z");
        return inTx(em -> {
            ConversationStore store = new ConversationStore(em);
            Conversation c = store.insert(ConversationKey.of("bot", "u", "s" + texts[0]), Map.of(), now);
            List<Long> ids = new java.util.ArrayList<>();
            for (int i = 0; i < texts.length; i++) {
                TurnRecord record = new TurnRecord(
                        "t" + i,
                        null,
                        "u",
                        texts[i],
                        "",
                        null,
                        List.of(),
                        now,
                        Map.of(),
                        "bot",
                        List.of(),
                        null,
                        new TokenCount(1, 0, 0, 1, "o200k_base"),
                        TurnState.RAW,
                        2,
                        "1");
                Turn turn = store.append(c, record, now);
                TurnMessage m = new TurnMessage(turn, TurnMessage.USER, null, null, texts[i], texts[i]);
                em.persist(m);
                em.flush();
                ids.add(m.getId());
            }
            return ids;
        });
    }

    private long episode(String id) {
        org.agentmemory.api.episodic.Episode record = new org.agentmemory.api.episodic.Episode(
                id,
                MemoryNamespace.of("acme", "planner"),
                Instant.parse("2026-12-01T00:00:00Z"),
                Instant.parse("2026-12-01T00:00:00Z"),
                null,
                "deploy " + id,
                "act",
                EpisodeOutcome.SUCCESS,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                org.agentmemory.api.episodic.EpisodeCategory.TOOL_EXECUTION,
                5,
                false,
                null,
                null,
                null);
        return inTx(em -> {
            Episode e = EpisodeMapper.toEntity(record, "key-" + id, model.embed(record.situation()), model.name());
            em.persist(e);
            em.flush();
            return e.getId();
        });
    }

    /** @return id → embedding model of every document of an index ("_pending" for none yet, on messages) */
    private Map<Long, String> indexed(Class<?> entity) {
        return inTx(em -> {
            Map<Long, String> docs = new TreeMap<>();
            for (List<?> hit : Search.session(em)
                    .search(entity)
                    .select(f -> f.composite()
                            .from(f.id(Long.class), f.field("embeddingModel", String.class))
                            .asList())
                    .where(f -> f.matchAll())
                    .fetchAllHits()) {
                docs.put((Long) hit.get(0), (String) hit.get(1));
            }
            return docs;
        });
    }

    @Test
    void anIndexThatAgreesWithItsTablesIsLeftAlone() {
        messages("alpha", "beta");
        episode("e-1");

        IndexReconciliation.Outcome outcome = reconciliation().run();

        assertThat(outcome.documentsCompared()).isEqualTo(3);
        assertThat(outcome.reindexed()).isZero();
        assertThat(outcome.purged()).isZero();
    }

    @Test
    void missingStaleAndGhostDocumentsAreRepaired() {
        List<Long> ids = messages("alpha", "beta", "gamma");
        long kept = episode("e-kept");
        long deleted = episode("e-deleted");
        // A message committed whose index write was lost.
        long[] lost = new long[1];
        inTxUnindexed(em -> {
            Turn turn = em.find(TurnMessage.class, ids.get(0)).getTurn();
            TurnMessage m = new TurnMessage(turn, TurnMessage.ASSISTANT, null, null, "delta", "delta");
            em.persist(m);
            em.flush();
            lost[0] = m.getId();
        });
        // A vector the embedder committed whose index update was lost.
        inTxUnindexed(em -> em.find(TurnMessage.class, ids.get(1)).setEmbedding(model.embed("beta"), model.name()));
        // Deletes committed whose purges were lost.
        inTxUnindexed(em -> {
            em.remove(em.find(TurnMessage.class, ids.get(2)));
            em.remove(em.find(Episode.class, deleted));
        });
        assertThat(indexed(TurnMessage.class)).containsOnlyKeys(ids);
        assertThat(indexed(TurnMessage.class).get(ids.get(1))).isEqualTo(TurnMessage.PENDING_IN_INDEX);
        assertThat(indexed(Episode.class)).containsOnlyKeys(kept, deleted);

        IndexReconciliation.Outcome outcome = reconciliation().run();

        assertThat(outcome.documentsCompared()).isEqualTo(5);
        assertThat(outcome.reindexed()).isEqualTo(2); // the lost message, the stale vector
        assertThat(outcome.purged()).isEqualTo(2); // the deleted message and episode
        Map<Long, String> messages = indexed(TurnMessage.class);
        assertThat(messages).containsOnlyKeys(ids.get(0), ids.get(1), lost[0]);
        assertThat(messages.get(ids.get(1))).isEqualTo("fake-a");
        assertThat(indexed(Episode.class)).containsOnlyKeys(kept);
        List<Long> nearest = inTx(em -> Search.session(em)
                .search(TurnMessage.class)
                .select(f -> f.id(Long.class))
                .where(f -> f.knn(5).field("embedding").matching(model.embed("beta")))
                .fetchAllHits());
        assertThat(nearest).containsExactly(ids.get(1)); // the vector is searchable again

        IndexReconciliation.Outcome again = reconciliation().run();
        assertThat(again.reindexed() + again.purged()).isZero();
    }

    @Test
    void anEmptyIndexIsRebuiltFromTheDatabase() {
        List<Long> ids = messages("alpha", "beta");
        long e = episode("e-1");
        inTx(em -> {
            Search.session(em).workspace(Object.class).purge();
            return null;
        });
        assertThat(indexed(TurnMessage.class)).isEmpty();

        IndexReconciliation.Outcome outcome = reconciliation().run();

        assertThat(outcome.reindexed()).isEqualTo(3);
        assertThat(indexed(TurnMessage.class)).containsOnlyKeys(ids);
        assertThat(indexed(Episode.class)).containsOnlyKeys(e);
        assertThat(Files.exists(indexes)).isTrue();
    }
}
