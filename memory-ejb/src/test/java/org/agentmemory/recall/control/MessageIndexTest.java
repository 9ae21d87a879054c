package org.agentmemory.recall.control;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.testsupport.Databases;
import org.agentmemory.testsupport.FakeEmbeddingModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The embedding queue of conversation messages on real H2 and PostgreSQL databases (no search index here). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MessageIndexTest {

    private EntityManagerFactory h2;
    private EntityManagerFactory postgres;

    @BeforeAll
    void start() {
        h2 = Databases.unit("memory-hibernate", Databases.freshH2());
        postgres = Databases.unit("memory-hibernate", Databases.freshPostgres("agent_memory_message_index_test"));
    }

    @AfterAll
    void stop() {
        h2.close();
        postgres.close();
    }

    Stream<Arguments> units() {
        return Stream.of(Arguments.of("hibernate-h2", h2), Arguments.of("hibernate-postgresql", postgres));
    }

    private static <T> T inTx(EntityManagerFactory emf, Function<EntityManager, T> work) {
        return Databases.inTransaction(emf, work);
    }

    private static long conversationWith(EntityManagerFactory emf, String user, String... texts) {
        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        return inTx(emf, em -> {
            ConversationStore store = new ConversationStore(em);
            Conversation c = store.insert(ConversationKey.of("bot", user, "s"), Map.of(), now);
            for (int i = 0; i < texts.length; i++) {
                TurnRecord record = new TurnRecord(
                        "t" + i,
                        null,
                        user,
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
                em.persist(new TurnMessage(turn, TurnMessage.USER, null, null, texts[i], texts[i]));
            }
            return c.getId();
        });
    }

    private static List<TurnMessage> messages(EntityManagerFactory emf, long conversationId) {
        return inTx(
                emf,
                em -> em.createQuery(
                                "SELECT m FROM TurnMessage m WHERE m.conversationId = :c ORDER BY m.id",
                                TurnMessage.class)
                        .setParameter("c", conversationId)
                        .getResultList());
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void aRefusedTextNeverBlocksTheQueue(String name, EntityManagerFactory emf) {
        String user = "queue-" + name;
        long c = conversationWith(emf, user, "first message", "poison pill", "third message");
        FakeEmbeddingModel model = new FakeEmbeddingModel("fake-a");
        long pendingBefore = inTx(emf, em -> MessageIndex.pendingEmbeddings(em, "default", user, null, "fake-a"));
        assertThat(pendingBefore).isEqualTo(3);

        int taken = inTx(emf, em -> MessageIndex.embedPending(em, model, 128));

        assertThat(taken).isGreaterThanOrEqualTo(3);
        List<TurnMessage> stored = messages(emf, c);
        assertThat(stored)
                .extracting(TurnMessage::getEmbeddingModel)
                .containsExactly("fake-a", MessageIndex.NO_VECTOR, "fake-a");
        assertThat(stored.get(0).getEmbedding()).containsExactly(model.embed("first message"));
        assertThat(stored.get(1).getEmbedding()).isNull();
        long pendingAfter = inTx(emf, em -> MessageIndex.pendingEmbeddings(em, "default", user, null, "fake-a"));
        assertThat(pendingAfter).isZero();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void aModelChangeReEmbedsTheOtherModelsVectors(String name, EntityManagerFactory emf) {
        String user = "change-" + name;
        long c = conversationWith(emf, user, "alpha", "poison beta");
        inTx(emf, em -> MessageIndex.embedPending(em, new FakeEmbeddingModel("fake-old"), 128));
        FakeEmbeddingModel next = new FakeEmbeddingModel("fake-new");
        long pendingForNew = inTx(emf, em -> MessageIndex.pendingEmbeddings(em, "default", user, null, "fake-new"));
        assertThat(pendingForNew).isEqualTo(1); // alpha; the refused message has no vector on purpose
        long pendingForOld = inTx(emf, em -> MessageIndex.pendingEmbeddings(em, "default", user, null, "fake-old"));
        assertThat(pendingForOld).isZero();

        int reembedded = 0;
        int round;
        do { // other tests' messages may be re-embedded too; rounds of 128 until none is left
            round = inTx(emf, em -> MessageIndex.reembedOtherModels(em, next, 128));
            reembedded += round;
        } while (round > 0);

        assertThat(reembedded).isGreaterThanOrEqualTo(1);
        List<TurnMessage> stored = messages(emf, c);
        assertThat(stored)
                .extracting(TurnMessage::getEmbeddingModel)
                .containsExactly("fake-new", MessageIndex.NO_VECTOR);
        assertThat(stored.get(0).getEmbedding()).containsExactly(next.embed("alpha"));
        assertThat(stored.get(1).getEmbedding()).isNull();
        long pendingAfter = inTx(emf, em -> MessageIndex.pendingEmbeddings(em, "default", user, null, "fake-new"));
        assertThat(pendingAfter).isZero();
    }

    /**
     * Embedders of several servers (threads with transactions of their own) draining one queue: every message is
     * taken by exactly one of them (rows another holds are skipped, rows another committed no longer match).
     */
    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void concurrentEmbeddersNeverEmbedAMessageTwice(String name, EntityManagerFactory emf) throws Exception {
        String user = "race-" + name;
        String[] texts = new String[120];
        for (int i = 0; i < texts.length; i++) {
            texts[i] = "race message " + i + " of " + name;
        }
        long c = conversationWith(emf, user, texts);
        java.util.Map<String, Integer> embeddedTimes = new java.util.concurrent.ConcurrentHashMap<>();
        FakeEmbeddingModel fake = new FakeEmbeddingModel("fake-race");
        org.agentmemory.platform.embedding.EmbeddingModel slow =
                new org.agentmemory.platform.embedding.EmbeddingModel() {
                    @Override
                    public String name() {
                        return fake.name();
                    }

                    @Override
                    public int dimension() {
                        return fake.dimension();
                    }

                    @Override
                    public float[] embed(String text) {
                        embeddedTimes.merge(text, 1, Integer::sum);
                        try {
                            Thread.sleep(2); // the batch holds its rows while the other embedders look
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return fake.embed(text);
                    }

                    @Override
                    public List<float[]> embedAll(List<String> batch) {
                        return batch.stream().map(this::embed).toList();
                    }
                };
        int servers = 3;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(servers);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<Integer>> taken = new java.util.ArrayList<>();
        try {
            for (int s = 0; s < servers; s++) {
                taken.add(pool.submit(() -> {
                    go.await();
                    int mine = 0;
                    int batch;
                    do {
                        batch = inTx(emf, em -> MessageIndex.embedPending(em, slow, 8));
                        mine += batch;
                    } while (batch > 0);
                    return mine;
                }));
            }
            go.countDown();
            int total = 0;
            for (java.util.concurrent.Future<Integer> f : taken) {
                total += f.get(2, java.util.concurrent.TimeUnit.MINUTES);
            }
            // every message of this conversation once, whichever embedder took it (other tests' rows may be pending
            // too)
            assertThat(total).isGreaterThanOrEqualTo(texts.length);
        } finally {
            pool.shutdownNow();
        }
        for (String text : texts) {
            assertThat(embeddedTimes.get(text)).as(text).isEqualTo(1);
        }
        assertThat(messages(emf, c)).extracting(TurnMessage::getEmbeddingModel).containsOnly("fake-race");
    }
}
