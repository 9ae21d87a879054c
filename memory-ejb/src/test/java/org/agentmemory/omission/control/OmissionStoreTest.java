package org.agentmemory.omission.control;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.conversation.control.ConversationStore;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.testsupport.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The omission store on real H2 and PostgreSQL, under Hibernate and under EclipseLink. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OmissionStoreTest {

    private final List<EntityManagerFactory> units = new ArrayList<>();

    @BeforeAll
    void start() {
        units.add(Databases.unit("memory-hibernate", Databases.freshH2()));
        units.add(Databases.unit("memory-hibernate", Databases.freshPostgres("agent_memory_omission_test")));
        units.add(Databases.unit("memory-eclipselink", Databases.freshH2()));
        units.add(Databases.unit(
                "memory-eclipselink", Databases.freshPostgres("agent_memory_omission_eclipselink_test")));
    }

    @AfterAll
    void stop() {
        units.forEach(EntityManagerFactory::close);
    }

    Stream<Arguments> units() {
        return Stream.of(
                Arguments.of("hibernate-h2", units.get(0)),
                Arguments.of("hibernate-postgresql", units.get(1)),
                Arguments.of("eclipselink-h2", units.get(2)),
                Arguments.of("eclipselink-postgresql", units.get(3)));
    }

    private static <T> T inTx(EntityManagerFactory emf, Function<EntityManager, T> work) {
        return Databases.inTransaction(emf, work);
    }

    private static long conversation(EntityManagerFactory emf, String user) {
        return inTx(
                emf,
                em -> new ConversationStore(em)
                        .insert(ConversationKey.of(null, user, "s"), null, Instant.parse("2026-01-01T00:00:00Z"))
                        .getId());
    }

    private static OmissionScope load(EntityManager em, long id) {
        Conversation c = em.find(Conversation.class, id);
        return new OmissionScope(c.getTenantId(), c.getId());
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void putIsIdempotentAndTheIndexKeepsInsertionOrderWithoutDuplicates(String name, EntityManagerFactory emf) {
        long id = conversation(emf, "put-" + name);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        String big = "line\n".repeat(10_000);
        List<String> ids = inTx(emf, em -> {
            OmissionStore store = new OmissionStore(em);
            OmissionScope c = load(em, id);
            String first = store.put(c, big, "t1", "bash", now, null);
            String second = store.put(c, "other", "t1", "bash", now, null);
            String again = store.put(c, big, "t1", "bash", now, null);
            String otherTurn = store.put(c, big, "t2", "bash", now, null);
            return List.of(first, second, again, otherTurn);
        });
        assertThat(ids.get(0))
                .isEqualTo(ContentIds.contentId(big))
                .isEqualTo(ids.get(2))
                .isEqualTo(ids.get(3));
        inTx(emf, em -> {
            OmissionStore store = new OmissionStore(em);
            OmissionScope c = load(em, id);
            assertThat(store.get(c, ids.get(0), now)).isEqualTo(big);
            assertThat(store.listByTurn(c, "t1", now)).containsExactly(ids.get(0), ids.get(1));
            assertThat(store.listByTurn(c, "t2", now)).containsExactly(ids.get(0));
            Map<String, Boolean> probe = store.probeMany(c, List.of(ids.get(1), "om_0000000000000000"), now);
            assertThat(probe).containsEntry(ids.get(1), true).containsEntry("om_0000000000000000", false);
            assertThat(store.probe(c, ids.get(0), now)).isTrue();
            return null;
        });
        Long rows = inTx(
                emf,
                em -> em.createQuery("SELECT COUNT(o) FROM Omission o WHERE o.conversationId = :c", Long.class)
                        .setParameter("c", id)
                        .getSingleResult());
        assertThat(rows).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void contentOfAnotherConversationIsUnknown(String name, EntityManagerFactory emf) {
        long mine = conversation(emf, "scope-a-" + name);
        long theirs = conversation(emf, "scope-b-" + name);
        Instant now = Instant.now();
        String id = inTx(emf, em -> new OmissionStore(em).put(load(em, theirs), "secret", "t", "x", now, null));
        inTx(emf, em -> {
            OmissionStore store = new OmissionStore(em);
            assertThat(store.get(load(em, mine), id, now)).isNull();
            assertThat(store.probe(load(em, mine), id, now)).isFalse();
            assertThat(store.get(load(em, theirs), id, now)).isEqualTo("secret");
            return null;
        });
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void expiredContentIsInvisibleAndPurgedWhileFreshContentStays(String name, EntityManagerFactory emf) {
        long id = conversation(emf, "ttl-" + name);
        Instant t0 = Instant.parse("2026-02-01T00:00:00Z");
        String old = inTx(
                emf,
                em -> new OmissionStore(em).put(load(em, id), "short-lived", "t1", "x", t0, Duration.ofSeconds(60)));
        String fresh = inTx(emf, em -> new OmissionStore(em).put(load(em, id), "forever", "t1", "x", t0, null));
        Instant later = t0.plusSeconds(61);
        inTx(emf, em -> {
            OmissionStore store = new OmissionStore(em);
            OmissionScope c = load(em, id);
            assertThat(store.get(c, old, t0.plusSeconds(59))).isEqualTo("short-lived");
            assertThat(store.get(c, old, later)).isNull();
            assertThat(store.probe(c, old, later)).isFalse();
            assertThat(store.listByTurn(c, "t1", later)).containsExactly(fresh);
            return null;
        });
        Integer purged = inTx(emf, em -> new OmissionStore(em).purgeExpired(later));
        assertThat(purged).isGreaterThanOrEqualTo(1);
        inTx(emf, em -> {
            assertThat(new OmissionStore(em).get(load(em, id), fresh, later)).isEqualTo("forever");
            return null;
        });
        Long indexRows = inTx(
                emf,
                em -> em.createQuery("SELECT COUNT(t) FROM OmissionTurn t WHERE t.conversationId = :c", Long.class)
                        .setParameter("c", id)
                        .getSingleResult());
        assertThat(indexRows).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void clearDropsContentAndIndex(String name, EntityManagerFactory emf) {
        long id = conversation(emf, "clear-" + name);
        Instant now = Instant.now();
        inTx(emf, em -> new OmissionStore(em).put(load(em, id), "a", "t1", "x", now, null));
        Integer cleared = inTx(emf, em -> new OmissionStore(em).clear(load(em, id)));
        assertThat(cleared).isEqualTo(1);
        List<String> left = inTx(emf, em -> new OmissionStore(em).listByTurn(load(em, id), "t1", now));
        assertThat(left).isEmpty();
    }
}
