package org.agentmemory.it.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.episodic.RecallRequest;
import org.agentmemory.api.recall.MessageHit;
import org.agentmemory.api.recall.MessageRecallRequest;
import org.agentmemory.conversation.boundary.ConversationBeans;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.episodic.boundary.EpisodicBeans;
import org.agentmemory.episodic.control.EpisodeStore;
import org.agentmemory.episodic.control.TestReflection;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.config.TestSettings;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.text.TextNormalization;
import org.agentmemory.recall.boundary.RecallBeans;
import org.hibernate.search.mapper.orm.Search;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Right to erasure (issue 34 item 4) on OpenSearch, the index part: the product's erasure steps for conversations
 * ({@code ConversationEraserBean}) and episodes ({@code EpisodeEraserBean}) delete a subject's rows, and Hibernate
 * Search's Elasticsearch backend removes every document of theirs from a real OpenSearch 2.19.1 node, while a second
 * user holding word for word the same messages and episodes, and a user whose id is the subject's id with its
 * wildcards, keep theirs.
 *
 * <p>What it proves:
 * <ul>
 * <li>after the erasure no message or episode document of the subject is left in either index (counted in the index
 * by the subject's user id, not through the database), and the indexes lost exactly the subject's documents;</li>
 * <li>full-text, vector and hybrid search with the subject's exact text find nothing of the subject, at the level of
 * the index legs (before any database re-check that could hide a stale document) and through the recall beans;</li>
 * <li>the other users' searches answer exactly as before: the same hits in the same order;</li>
 * <li>a second erasure deletes nothing.</li>
 * </ul>
 */
@ExtendWith(OpenSearchNode.Resolver.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ErasureOpenSearchIT {

    private static final String TENANT = "acme";
    private static final String AGENT = "helper";
    /** The subject: a quote and both wildcards. */
    private static final String SUBJECT = "ann\"*?";
    /** Users who must keep everything: the same words, and an id the subject's would match as a pattern. */
    private static final List<String> OTHERS = List.of("ben", "ann\"");

    private static final String LISBON = "My sister Maria moved to Lisbon last spring";
    private static final String LISBON_REPLY = "Lisbon is lovely in spring; did she find a flat near the river?";
    private static final String BILLING = "Deploy of the billing service failed: lock timeout on the invoices table";

    private SearchUnit unit;
    private Settings settings;
    private ConversationBeans conversations;
    private EpisodicBeans episodes;
    private RecallBeans recall;

    @BeforeAll
    void store(OpenSearchNode node) throws Exception {
        unit = SearchUnit.start(node);
        settings = TestSettings.of(Map.of("memory.tokenizer", "heuristic", "memory.recall.embedding", "inline"));
        conversations = new ConversationBeans(unit.emf(), settings);
        episodes = new EpisodicBeans(unit.emf(), settings, TestReflection.of(Map.of()));
        recall = new RecallBeans(unit.emf(), settings);
        List<EpisodeInput> inputs = new ArrayList<>();
        for (String user : users()) {
            ConversationKey key = new ConversationKey(TENANT, AGENT, user, "s-1");
            conversations.inTransaction(m -> m.addTurn(key, TurnRecord.of("t-1", LISBON, LISBON_REPLY)));
            conversations.inTransaction(m -> m.addTurn(key, TurnRecord.of("t-2", BILLING, "Retry after noon.")));
            for (int i = 0; i < 2; i++) {
                inputs.add(EpisodeInput.builder(
                                namespace(user), BILLING, "Ran the migration, step " + i, EpisodeOutcome.FAILURE)
                        .build());
            }
        }
        List<Episode> recorded = episodes.call(memory -> memory.recordEpisodes(inputs));
        assertThat(recorded).hasSize(2 * users().size());
    }

    @AfterAll
    void close() {
        if (unit != null) {
            unit.close();
        }
    }

    private static List<String> users() {
        List<String> all = new ArrayList<>();
        all.add(SUBJECT);
        all.addAll(OTHERS);
        return all;
    }

    private static MemoryNamespace namespace(String user) {
        return new MemoryNamespace(TENANT, AGENT, user, null, null, null);
    }

    @Test
    void erasureLeavesNoDocumentOfTheSubjectAndOtherUsersAnswerAsBefore() throws Exception {
        assertThat(indexed(TurnMessage.class, SUBJECT)).isEqualTo(4);
        assertThat(indexed(org.agentmemory.episodic.entity.Episode.class, SUBJECT))
                .isEqualTo(2);
        long[] countsBefore = unit.documentCounts();
        Map<String, Map<RecallMode, List<String>>> before = new java.util.HashMap<>();
        for (String user : users()) {
            before.put(user, answers(user));
            assertThat(before.get(user).get(RecallMode.HYBRID)).as(user).isNotEmpty();
        }

        assertThat(conversations.erase(TENANT, SUBJECT)).isEqualTo(1);
        assertThat(episodes.erase(TENANT, SUBJECT)).hasSize(2);

        assertThat(indexed(TurnMessage.class, SUBJECT))
                .as("message documents of the subject")
                .isZero();
        assertThat(indexed(org.agentmemory.episodic.entity.Episode.class, SUBJECT))
                .as("episode documents of the subject")
                .isZero();
        assertThat(unit.documentCounts()).containsExactly(countsBefore[0] - 2, countsBefore[1] - 4);
        for (RecallMode mode : RecallMode.values()) {
            assertThat(answers(SUBJECT).get(mode))
                    .as("%s search of the subject", mode)
                    .isEmpty();
        }
        assertThat(legs(SUBJECT)).as("the subject's index legs").isEmpty();
        for (String user : OTHERS) {
            assertThat(answers(user)).as(user).isEqualTo(before.get(user));
            assertThat(legs(user)).as("%s's index legs", user).hasSize(2 * 2);
        }

        assertThat(conversations.erase(TENANT, SUBJECT)).as("idempotent").isZero();
        assertThat(episodes.erase(TENANT, SUBJECT)).isEmpty();
    }

    /** @return per mode, the user's message hits then episode hits for the stored words, as comparable strings */
    private Map<RecallMode, List<String>> answers(String user) throws Exception {
        Map<RecallMode, List<String>> answers = new EnumMap<>(RecallMode.class);
        for (RecallMode mode : RecallMode.values()) {
            List<String> hits = new ArrayList<>();
            for (String text : List.of(LISBON, BILLING)) {
                for (MessageHit hit :
                        recall.searchMessages(new MessageRecallRequest(TENANT, user, null, null, text, mode, 10))) {
                    assertThat(hit.userId()).isEqualTo(user);
                    hits.add(hit.conversationId() + "/" + hit.turnId() + "/" + hit.role());
                }
            }
            List<EpisodeSearchResult> recalled = episodes.call(memory ->
                    memory.recallSimilar(new RecallRequest(namespace(user), BILLING, 10, null, null, false, mode)));
            for (EpisodeSearchResult r : recalled) {
                assertThat(r.episode().namespace()).isEqualTo(namespace(user));
                hits.add(r.episode().episodeId());
            }
            answers.put(mode, hits);
        }
        return answers;
    }

    /** @return the episode ids the index legs themselves return for the user's namespace, everything let through */
    private List<String> legs(String user) {
        EmbeddingModel model = settings.embeddingModel();
        float[] query = model.embedQuery(TextNormalization.query(BILLING));
        Instant now = Instant.now();
        List<String> ids = new ArrayList<>();
        unit.read(em -> {
                    EpisodeStore store = new EpisodeStore(em);
                    return List.of(
                            store.vectorLeg(namespace(user), model.name(), query, 50, -1.0, false, now),
                            store.fullTextLeg(namespace(user), TextNormalization.query(BILLING), 50, false, now));
                })
                .forEach(leg -> leg.forEach(hit -> ids.add(hit.id())));
        return ids;
    }

    /** @return how many documents of the user the entity's index holds, counted in the index */
    private long indexed(Class<?> entity, String user) {
        return unit.read(em -> Search.session(em)
                .search(entity)
                .where(f -> f.bool()
                        .must(f.match().field("tenantId").matching(TENANT))
                        .must(f.match().field("userId").matching(user)))
                .fetchTotalHitCount());
    }
}
