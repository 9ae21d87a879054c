package org.agentmemory.omission.control;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.omission.Omission;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.testsupport.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link OmissionStore#putMany} on real H2 and PostgreSQL under Hibernate and EclipseLink: the same rows as one {@code put}
 * per omission, idempotent across calls, index entries in insertion order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OmissionStorePutManyTest {

    private static final Instant NOW = Instant.parse("2026-02-01T10:00:00Z");
    private final List<EntityManagerFactory> units = new ArrayList<>();

    @BeforeAll
    void start() {
        units.add(Databases.unit("memory-hibernate", Databases.freshH2()));
        units.add(Databases.unit("memory-eclipselink", Databases.freshH2()));
        units.add(Databases.unit("memory-hibernate", Databases.freshPostgres("agent_memory_put_many_hibernate_test")));
        units.add(Databases.unit(
                "memory-eclipselink", Databases.freshPostgres("agent_memory_put_many_eclipselink_test")));
    }

    @AfterAll
    void stop() {
        units.forEach(EntityManagerFactory::close);
    }

    Stream<Arguments> units() {
        return Stream.of(
                Arguments.of("hibernate-h2", units.get(0)),
                Arguments.of("eclipselink-h2", units.get(1)),
                Arguments.of("hibernate-postgresql", units.get(2)),
                Arguments.of("eclipselink-postgresql", units.get(3)));
    }

    private static <T> T inTx(EntityManagerFactory emf, Function<EntityManager, T> work) {
        return Databases.inTransaction(emf, work);
    }

    private static Omission omission(String content, String turnId) {
        return new Omission(ContentIds.contentId(content), content, turnId, "bash", Omission.OUTPUT);
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void storesEachContentOnceAndIndexesEachTurnInInsertionOrder(String name, EntityManagerFactory emf) {
        ConversationKey key = ConversationKey.of(null, "putmany-" + name, "s");
        long id =
                inTx(emf, em -> new ConversationStore(em).insert(key, null, NOW).getId());
        String shared = "shared output ".repeat(50);
        // The write path already offloaded one content for t-1 (a plain put).
        inTx(emf, em -> new OmissionStore(em).put(find(em, id), "first " + shared, "t-1", "bash", NOW, null));

        List<Omission> batch = List.of(
                omission("first " + shared, "t-1"),
                omission(shared, "t-1"),
                omission(shared, "t-2"),
                omission("third", "t-2"),
                omission(shared, "t-2"));
        inTx(emf, em -> {
            new OmissionStore(em).putMany(find(em, id), batch, NOW, null);
            return null;
        });
        inTx(emf, em -> {
            new OmissionStore(em).putMany(find(em, id), batch, NOW, null);
            return null;
        });

        inTx(emf, em -> {
            OmissionStore store = new OmissionStore(em);
            OmissionScope c = find(em, id);
            assertThat(store.listByTurn(c, "t-1", NOW))
                    .containsExactly(ContentIds.contentId("first " + shared), ContentIds.contentId(shared));
            assertThat(store.listByTurn(c, "t-2", NOW))
                    .containsExactly(ContentIds.contentId(shared), ContentIds.contentId("third"));
            assertThat(store.get(c, ContentIds.contentId(shared), NOW)).isEqualTo(shared);
            assertThat(store.get(c, ContentIds.contentId("third"), NOW)).isEqualTo("third");
            long rows = em.createQuery("SELECT COUNT(o) FROM Omission o WHERE o.conversationId = :c", Long.class)
                    .setParameter("c", c.conversationId())
                    .getSingleResult();
            long indexRows = em.createQuery(
                            "SELECT COUNT(t) FROM OmissionTurn t WHERE t.conversationId = :c", Long.class)
                    .setParameter("c", c.conversationId())
                    .getSingleResult();
            assertThat(rows).isEqualTo(3);
            assertThat(indexRows).isEqualTo(4);
            return null;
        });
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void withATtlEveryPutRenewsTheExpiry(String name, EntityManagerFactory emf) {
        ConversationKey key = ConversationKey.of(null, "putmany-ttl-" + name, "s");
        long id =
                inTx(emf, em -> new ConversationStore(em).insert(key, null, NOW).getId());
        List<Omission> batch = List.of(omission("expiring", "t-1"));
        inTx(emf, em -> {
            new OmissionStore(em).putMany(find(em, id), batch, NOW, Duration.ofSeconds(60));
            return null;
        });
        inTx(emf, em -> {
            new OmissionStore(em).putMany(find(em, id), batch, NOW.plusSeconds(50), Duration.ofSeconds(60));
            return null;
        });
        inTx(emf, em -> {
            OmissionStore store = new OmissionStore(em);
            OmissionScope c = find(em, id);
            assertThat(store.get(c, ContentIds.contentId("expiring"), NOW.plusSeconds(100)))
                    .isEqualTo("expiring");
            assertThat(store.get(c, ContentIds.contentId("expiring"), NOW.plusSeconds(111)))
                    .isNull();
            return null;
        });
    }

    private static OmissionScope find(EntityManager em, long id) {
        Conversation c = new ConversationStore(em).find("default", id, false);
        return new OmissionScope(c.getTenantId(), c.getId());
    }
}
