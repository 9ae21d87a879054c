package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.compaction.SummaryMethod;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.Summary;
import org.agentmemory.testsupport.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SummaryStore} on real H2 and PostgreSQL (migration V14): one summary per conversation, every query scoped by
 * tenant (and user), extended in place, gone with its conversation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SummaryStoreTest {

    private static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");

    private EntityManagerFactory h2;
    private EntityManagerFactory postgres;
    private EntityManagerFactory eclipseLinkH2;
    private EntityManagerFactory eclipseLinkPostgres;

    @BeforeAll
    void start() {
        h2 = Databases.unit("memory-hibernate", Databases.freshH2());
        postgres = Databases.unit("memory-hibernate", Databases.freshPostgres("agent_memory_summary_test"));
        eclipseLinkH2 = Databases.unit("memory-eclipselink", Databases.freshH2());
        eclipseLinkPostgres =
                Databases.unit("memory-eclipselink", Databases.freshPostgres("agent_memory_summary_eclipselink_test"));
    }

    @AfterAll
    void stop() {
        h2.close();
        postgres.close();
        eclipseLinkH2.close();
        eclipseLinkPostgres.close();
    }

    Stream<Arguments> units() {
        return Stream.of(
                Arguments.of("hibernate-h2", h2),
                Arguments.of("hibernate-postgresql", postgres),
                Arguments.of("eclipselink-h2", eclipseLinkH2),
                Arguments.of("eclipselink-postgresql", eclipseLinkPostgres));
    }

    /** A conversation with turns t1..t{turns}; returns its id. */
    private static long conversation(EntityManagerFactory emf, String tenant, String user, int turns) {
        return Databases.inTransaction(emf, em -> {
            ConversationStore store = new ConversationStore(em);
            Conversation c =
                    store.insert(new ConversationKey(tenant, "bot", user, "s-" + System.nanoTime()), Map.of(), NOW);
            for (int i = 1; i <= turns; i++) {
                String turnId = "t" + i;
                store.append(
                        c,
                        TurnRecord.of(turnId, "question " + i, "answer " + i)
                                .withIdentity(turnId, null, user, NOW, "bot", TurnState.RAW, 2)
                                .withTokenCount(new TokenCount(2, 2, 0, 4, "o200k_base")),
                        NOW);
            }
            return c.getId();
        });
    }

    private static void write(EntityManagerFactory emf, String tenant, long id, long through, String text) {
        Databases.inTransaction(emf, em -> {
            Conversation c = new ConversationStore(em).find(tenant, id, true);
            SummaryStore store = new SummaryStore(em);
            Summary s = store.find(tenant, id);
            boolean created = s == null;
            if (created) {
                s = new Summary(c, NOW);
            }
            int before = created ? 0 : s.getTurnCount();
            s.write(
                    1,
                    "t1",
                    through,
                    "t" + through,
                    (int) through,
                    (int) through - before,
                    text,
                    7,
                    "o200k_base",
                    SummaryStore.stored(SummaryMethod.EXTRACTIVE),
                    NOW.plusSeconds(through));
            if (created) {
                store.insert(s);
            }
            return null;
        });
    }

    private static HistorySummary read(EntityManagerFactory emf, String tenant, long id) {
        return Databases.inTransaction(emf, em -> {
            Summary s = new SummaryStore(em).find(tenant, id);
            return s == null ? null : SummaryStore.record(s);
        });
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void aSummaryIsWrittenThenExtendedInPlaceAndReadInItsTenantOnly(String name, EntityManagerFactory emf) {
        long id = conversation(emf, "acme", "ann", 8);

        write(emf, "acme", id, 3, "- first");
        write(emf, "acme", id, 6, "- first\n- second");

        HistorySummary summary = read(emf, "acme", id);
        assertThat(summary.conversationId()).isEqualTo(id);
        assertThat(summary.firstTurnId()).isEqualTo("t1");
        assertThat(summary.lastTurnId()).isEqualTo("t6");
        assertThat(summary.lastSequence()).isEqualTo(6);
        assertThat(summary.turnCount()).isEqualTo(6);
        assertThat(summary.addedTurns()).isEqualTo(3);
        assertThat(summary.refreshes()).isEqualTo(2);
        assertThat(summary.text()).isEqualTo("- first\n- second");
        assertThat(summary.method()).isEqualTo(SummaryMethod.EXTRACTIVE);
        assertThat(summary.shortened()).isFalse();
        assertThat(summary.updatedAt()).isEqualTo(NOW.plusSeconds(6));
        assertThat(read(emf, "globex", id)).isNull();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void countAndDeleteNameTheTenantAndTheUser(String name, EntityManagerFactory emf) {
        long a = conversation(emf, "acme", "bob", 4);
        long b = conversation(emf, "acme", "bob", 4);
        long other = conversation(emf, "acme", "carl", 4);
        for (long id : List.of(a, b, other)) {
            write(emf, "acme", id, 2, "- text");
        }

        assertThat(Databases.<Long>inTransaction(
                        emf, em -> new SummaryStore(em).count("acme", "bob", List.of(a, b, other))))
                .isEqualTo(2);
        assertThat(Databases.<Long>inTransaction(emf, em -> new SummaryStore(em).count("globex", "bob", List.of(a, b))))
                .isZero();
        assertThat(Databases.<Integer>inTransaction(
                        emf, em -> new SummaryStore(em).delete("acme", "bob", List.of(a, other))))
                .isEqualTo(1);
        assertThat(read(emf, "acme", a)).isNull();
        assertThat(read(emf, "acme", b)).isNotNull();
        assertThat(read(emf, "acme", other)).isNotNull();
        assertThat(Databases.<Integer>inTransaction(emf, em -> new SummaryStore(em).delete("globex", b)))
                .isZero();
        assertThat(Databases.<Integer>inTransaction(emf, em -> new SummaryStore(em).delete("acme", b)))
                .isEqualTo(1);
        assertThat(read(emf, "acme", b)).isNull();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void deletingTheConversationDeletesItsSummary(String name, EntityManagerFactory emf) {
        long id = conversation(emf, "acme", "dora", 3);
        write(emf, "acme", id, 2, "- text");

        assertThat(Databases.<Boolean>inTransaction(emf, em -> new ConversationStore(em).delete("acme", id)))
                .isTrue();

        assertThat(Databases.<Long>inTransaction(emf, em -> new SummaryStore(em).count("acme", "dora", List.of(id))))
                .isZero();
    }
}
