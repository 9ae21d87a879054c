package org.agentmemory.it.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ImportLine;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.recall.MessageHit;
import org.agentmemory.api.recall.MessageRecallRequest;
import org.agentmemory.conversation.boundary.ConversationBeans;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.config.TestSettings;
import org.agentmemory.recall.boundary.RecallBeans;
import org.agentmemory.recall.control.MessageIndex;
import org.agentmemory.recall.control.MessageSearch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Conversation recall on OpenSearch: messages written by the product's {@code ConversationMemoryBean.addTurn}
 * (turn, then its {@link TurnMessage} rows, embedded inline with the product's default message model bge-small-en-v1.5 int8)
 * are indexed by Hibernate Search's Elasticsearch backend in a real OpenSearch 2.19.1 node, and searched by the
 * product's {@code ConversationRecallBean.searchMessages} (which runs {@link MessageSearch}'s legs, and in hybrid
 * mode fuses them with reciprocal rank fusion and re-ranks with neighbour context).
 *
 * <p>What it proves:
 * <ul>
 * <li>full-text, vector and hybrid search scoped to a user, or to one conversation, return the right message first,
 * with its turn id, role, external id ({@code dia_id}), author, sequence and content read from the index's
 * projections;</li>
 * <li>nothing leaks across users, tenants or conversations, even between users whose ids contain quotes,
 * backslashes and wildcards and whose messages are word for word the same;</li>
 * <li>{@code indexNullAs} on the {@code embeddingModel} keyword works on OpenSearch: messages written without a
 * vector (background embedding) count as pending in the index until the product's embedder
 * ({@link MessageIndex#embedPending}) gives them one, and then vector search finds them.</li>
 * </ul>
 */
@ExtendWith(OpenSearchNode.Resolver.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConversationRecallOpenSearchIT {

    private OpenSearchNode node;

    private static final String TENANT = ConversationKey.DEFAULT_TENANT;
    /** The querying user: a quote, a backslash and both wildcards. */
    private static final String USER = "bob\"\\*?";

    private static final List<String> OTHER_USERS = List.of("bob", "*", "?", "bob\"\\*", "BOB\"\\*?");
    private static final String OTHER_TENANT = "other*";

    private static final String LISBON = "My sister Maria moved to Lisbon last spring";
    private static final String LISBON_REPLY = "Lisbon is lovely in spring; did she find a flat near the river?";
    private static final String DINNER = "What should I cook for dinner tonight?";
    private static final String DINNER_REPLY = "Try a mushroom risotto with parmesan and thyme.";
    private static final String PUPPY = "We adopted a golden retriever puppy called Biscuit";
    private static final String PUPPY_REPLY = "Congratulations! Puppies need lots of sleep and short walks.";

    private SearchUnit unit;
    private Settings settings;
    private RecallBeans recall;
    private long lisbonConversation;
    private long puppyConversation;

    @BeforeAll
    void writeConversations(OpenSearchNode node) throws Exception {
        this.node = node;
        unit = SearchUnit.start(node);
        settings = TestSettings.of(Map.of("memory.tokenizer", "heuristic", "memory.recall.embedding", "inline"));
        recall = new RecallBeans(unit.emf(), settings);
        ConversationBeans conversations = new ConversationBeans(unit.emf(), settings);
        ConversationKey lisbon = new ConversationKey(TENANT, "helper", USER, "2026/11/30");
        lisbonConversation = conversations
                .inTransaction(m -> m.addTurn(
                        lisbon,
                        TurnRecord.of("t-1", LISBON, LISBON_REPLY)
                                .withMetadata(Map.of("dia_id", "D1:1", "speaker", "Bob", "reply_dia_id", "D1:2"))))
                .conversationId();
        AppendedTurn dinner = conversations.inTransaction(m -> m.addTurn(
                lisbon,
                TurnRecord.of("t-2", DINNER, DINNER_REPLY)
                        .withMetadata(Map.of("dia_id", "D1:3", "reply_dia_id", "D1:4"))));
        assertThat(dinner.conversationId()).isEqualTo(lisbonConversation);
        assertThat(dinner.turn().sequence()).isEqualTo(2L);
        puppyConversation = conversations
                .inTransaction(m -> m.addTurn(
                        new ConversationKey(TENANT, "helper", USER, "s-2"), TurnRecord.of("p-1", PUPPY, PUPPY_REPLY)))
                .conversationId();
        // Bait: word for word the same messages in other users' and another tenant's conversations.
        for (String other : OTHER_USERS) {
            conversations.inTransaction(m -> m.addTurn(
                    new ConversationKey(TENANT, "helper", other, "2026/11/30"),
                    TurnRecord.of("t-1", LISBON, LISBON_REPLY)));
        }
        conversations.inTransaction(m -> m.addTurn(
                new ConversationKey(OTHER_TENANT, "helper", USER, "2026/11/30"),
                TurnRecord.of("t-1", LISBON, LISBON_REPLY)));
        assertThat(unit.documentCounts()[1]).isEqualTo(2L * (3 + OTHER_USERS.size() + 1));
    }

    @AfterAll
    void close() {
        if (unit != null) {
            unit.close();
        }
    }

    private List<MessageHit> search(String tenant, String user, Long conversation, String query, RecallMode mode)
            throws Exception {
        return recall.searchMessages(new MessageRecallRequest(tenant, user, null, conversation, query, mode, 10));
    }

    @ParameterizedTest
    @EnumSource(RecallMode.class)
    void userScopeFindsTheRightMessageAndRoleAndNothingOfOtherUsers(RecallMode mode) throws Exception {
        String query = mode == RecallMode.VECTOR ? "Which city did Maria move to?" : "Maria moved to Lisbon";
        List<MessageHit> hits = search(TENANT, USER, null, query, mode);
        assertThat(hits).as("%s hits", mode).isNotEmpty();
        MessageHit first = hits.get(0);
        assertThat(first.conversationId()).isEqualTo(lisbonConversation);
        assertThat(first.turnId()).isEqualTo("t-1");
        assertThat(first.sequence()).isEqualTo(1L);
        assertThat(first.role()).isEqualTo(TurnMessage.USER);
        assertThat(first.externalId()).isEqualTo("D1:1");
        assertThat(first.author()).isEqualTo("Bob");
        assertThat(first.content()).isEqualTo(LISBON);
        assertThat(first.sessionId()).isEqualTo("2026/11/30");
        assertThat(hits).allSatisfy(h -> {
            assertThat(h.userId()).isEqualTo(USER);
            assertThat(h.conversationId()).isIn(lisbonConversation, puppyConversation);
        });
    }

    /**
     * A bulk import in several calls with deferred indexing: each call returns when its rows are committed, and
     * after {@code awaitDeferredIndexing} every message of every call is searchable on OpenSearch, which routes
     * documents to several indexing queues (no ordering between them to lean on).
     */
    @Test
    void deferredImportBatchesAreAllSearchableAfterTheWait() throws Exception {
        ConversationBeans conversations = new ConversationBeans(unit.emf(), settings);
        String user = "bulk-importer";
        String[] words = {"albatross", "zeppelin", "quokka", "marmalade", "sextant", "kumquat", "gazpacho"};
        long imported = 0;
        for (int call = 0; call < 3; call++) {
            List<ImportLine> lines = new java.util.ArrayList<>();
            for (int i = 0; i < 120; i++) {
                int n = call * 120 + i;
                lines.add(new ImportLine(
                        n + 1,
                        new ConversationKey(TENANT, "helper", user, "bulk-" + (n % 9)),
                        TurnRecord.of(
                                "b-" + n,
                                "Entry " + n + " is about the " + words[n % words.length] + " number " + n + "x" + n,
                                "Stored entry " + n + ".")));
            }
            imported += conversations
                    .inTransaction(m -> m.importTurns(TENANT, lines, true))
                    .turnsImported();
        }
        assertThat(imported).isEqualTo(360);
        int failures = conversations.inTransaction(m -> m.awaitDeferredIndexing());
        assertThat(failures).isZero();
        for (int n : new int[] {0, 119, 200, 359}) {
            List<MessageHit> hits = search(TENANT, user, null, n + "x" + n, RecallMode.FULL_TEXT);
            assertThat(hits).as("entry %d", n).extracting(MessageHit::turnId).contains("b-" + n);
        }
        // Every message of the three calls is in the index: 360 turns, two messages each.
        assertThat(search(TENANT, user, null, "entry", RecallMode.FULL_TEXT)).hasSize(10);
        assertThat(unit.documentCounts()[1]).isGreaterThanOrEqualTo(2L * (3 + OTHER_USERS.size() + 1) + 720);
    }

    @ParameterizedTest
    @EnumSource(RecallMode.class)
    void assistantResponsesComeBackWithTheirRole(RecallMode mode) throws Exception {
        String query =
                mode == RecallMode.VECTOR ? "a recipe suggestion with rice and mushrooms" : "mushroom risotto parmesan";
        List<MessageHit> hits = search(TENANT, USER, null, query, mode);
        assertThat(hits).isNotEmpty();
        assertThat(hits.get(0).turnId()).isEqualTo("t-2");
        assertThat(hits.get(0).role()).isEqualTo(TurnMessage.ASSISTANT);
        assertThat(hits.get(0).externalId()).isEqualTo("D1:4");
        assertThat(hits.get(0).content()).isEqualTo(DINNER_REPLY);
        assertThat(hits.get(0).sequence()).isEqualTo(2L);
    }

    @ParameterizedTest
    @EnumSource(RecallMode.class)
    void conversationScopeStaysInItsConversation(RecallMode mode) throws Exception {
        List<MessageHit> puppy = search(TENANT, null, puppyConversation, "golden retriever puppy Biscuit", mode);
        assertThat(puppy).isNotEmpty();
        assertThat(puppy.get(0).turnId()).isEqualTo("p-1");
        assertThat(puppy.get(0).role()).isEqualTo(TurnMessage.USER);
        assertThat(puppy).allSatisfy(h -> assertThat(h.conversationId()).isEqualTo(puppyConversation));
        // The Lisbon messages are the user's too, but not this conversation's.
        List<MessageHit> lisbon = search(TENANT, null, puppyConversation, "Maria moved to Lisbon", mode);
        assertThat(lisbon).allSatisfy(h -> assertThat(h.conversationId()).isEqualTo(puppyConversation));
        if (mode == RecallMode.FULL_TEXT) {
            assertThat(lisbon).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(RecallMode.class)
    void otherUsersAndTenantsSeeOnlyTheirOwnCopies(RecallMode mode) throws Exception {
        for (String other : OTHER_USERS) {
            List<MessageHit> hits = search(TENANT, other, null, "Maria moved to Lisbon", mode);
            assertThat(hits)
                    .as("%s search of user %s", mode, other)
                    .hasSize(2)
                    .allSatisfy(h -> assertThat(h.userId()).isEqualTo(other));
            assertThat(hits.get(0).role()).isEqualTo(TurnMessage.USER);
            assertThat(hits).extracting(MessageHit::conversationId).doesNotContain(lisbonConversation);
        }
        List<MessageHit> tenant = search(OTHER_TENANT, USER, null, "Maria moved to Lisbon", mode);
        assertThat(tenant)
                .hasSize(2)
                .extracting(MessageHit::conversationId)
                .doesNotContain(lisbonConversation, puppyConversation);
        // The querying user's own search returns only its own messages, never the identical bait.
        List<MessageHit> own = search(TENANT, USER, null, "Maria moved to Lisbon", mode);
        assertThat(own)
                .isNotEmpty()
                .extracting(MessageHit::conversationId)
                .allSatisfy(c -> assertThat(c).isIn(lisbonConversation, puppyConversation));
        assertThat(own.get(0).conversationId()).isEqualTo(lisbonConversation);
    }

    @Test
    void messagesWithoutVectorsArePendingInTheIndexUntilEmbedded() throws Exception {
        Settings background =
                TestSettings.of(Map.of("memory.tokenizer", "heuristic", "memory.recall.embedding", "background"));
        String user = "carol?*";
        long conversation = new ConversationBeans(unit.emf(), background)
                .inTransaction(m -> m.addTurn(
                        new ConversationKey(TENANT, null, user, "s"),
                        TurnRecord.of(
                                "c-1", "The violin lesson moved to Thursday afternoon", "Noted: violin on Thursday.")))
                .conversationId();
        MessageSearch.Scope scope = new MessageSearch.Scope(TENANT, user, null, null);
        long pending = unit.read(em -> new MessageSearch(em).pendingInIndex(scope));
        assertThat(pending).isEqualTo(2L);
        assertThat(search(TENANT, user, null, "When is the music class?", RecallMode.VECTOR))
                .isEmpty();
        // Full text does not wait for vectors.
        assertThat(search(TENANT, user, null, "violin lesson", RecallMode.FULL_TEXT))
                .isNotEmpty();

        int embedded = unit.inTransaction(em -> MessageIndex.embedPending(em, settings.messageEmbeddingModel(), 100));
        assertThat(embedded).isEqualTo(2);
        long stillPending = unit.read(em -> new MessageSearch(em).pendingInIndex(scope));
        assertThat(stillPending).isZero();
        List<MessageHit> vector = search(TENANT, user, null, "When is the music class?", RecallMode.VECTOR);
        assertThat(vector)
                .isNotEmpty()
                .allSatisfy(h -> assertThat(h.conversationId()).isEqualTo(conversation));
        assertThat(vector.get(0).turnId()).isEqualTo("c-1");
    }
}
