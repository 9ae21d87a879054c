package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.InvocationStatus;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.platform.schema.SchemaMigration;
import org.agentmemory.testsupport.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The store's queries and the migrations, on real H2 and real PostgreSQL, with Hibernate and with EclipseLink (the
 * entities must stay portable; the Hibernate-only bulk paths run on the Hibernate units only). The JVM runs in Pacific/Chatham on purpose.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConversationStoreTest {

    private final List<EntityManagerFactory> units = new ArrayList<>();
    private EntityManagerFactory hibernateH2;
    private EntityManagerFactory hibernatePostgres;
    private EntityManagerFactory eclipseLinkH2;
    private EntityManagerFactory eclipseLinkPostgres;

    @BeforeAll
    void start() {
        hibernateH2 = track(Databases.unit("memory-hibernate", Databases.freshH2()));
        DataSource pg = Databases.freshPostgres("agent_memory_store_test");
        hibernatePostgres = track(Databases.unit("memory-hibernate", pg));
        eclipseLinkH2 = track(Databases.unit("memory-eclipselink", Databases.freshH2()));
        eclipseLinkPostgres = track(
                Databases.unit("memory-eclipselink", Databases.freshPostgres("agent_memory_store_eclipselink_test")));
    }

    private EntityManagerFactory track(EntityManagerFactory emf) {
        units.add(emf);
        return emf;
    }

    @AfterAll
    void stop() {
        units.forEach(EntityManagerFactory::close);
    }

    // Arguments hold factories, which JUnit would close after each invocation unless told not to.
    Stream<Arguments> units() {
        return Stream.of(
                Arguments.of("hibernate-h2", hibernateH2),
                Arguments.of("hibernate-postgresql", hibernatePostgres),
                Arguments.of("eclipselink-h2", eclipseLinkH2),
                Arguments.of("eclipselink-postgresql", eclipseLinkPostgres));
    }

    Stream<Arguments> hibernateUnits() {
        return Stream.of(
                Arguments.of("hibernate-h2", hibernateH2), Arguments.of("hibernate-postgresql", hibernatePostgres));
    }

    private static <T> T inTx(EntityManagerFactory emf, Function<ConversationStore, T> work) {
        return Databases.inTransaction(emf, em -> work.apply(new ConversationStore(em)));
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("hibernateUnits")
    void mappingValidatesAgainstTheMigratedSchema(String name, EntityManagerFactory emf) {
        SchemaMigration.validate(emf);
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void turnWithTwoInvocationsReadsBackEqualFieldByField(String name, EntityManagerFactory emf) {
        ConversationKey key = ConversationKey.of("bot/α", "user \"q\" 😀", "sess%2F" + name);
        Instant ts = Instant.parse("2026-03-29T01:30:00.123456Z");
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("path", "/tmp/a b.txt");
        input.put("nested", Map.of("k", List.of(1, 2.5, "x")));
        ToolInvocationRecord ok = new ToolInvocationRecord(
                "read_file", input, "contents 漢字", InvocationStatus.COMPLETED, null, 12L, null, Map.of(), "wm:1");
        ToolInvocationRecord failed = new ToolInvocationRecord(
                "bash",
                Map.of("command", "ls /nope"),
                null,
                InvocationStatus.ERROR,
                "ls: cannot access '/nope'",
                3L,
                null,
                Map.of(),
                null);
        TurnRecord turn = new TurnRecord(
                "t-1",
                null,
                "user \"q\" 😀",
                "read it",
                "done",
                "ctx",
                List.of("read_file", "bash"),
                ts,
                Map.of("model", "gpt-4o", "usage", Map.of("input_tokens", 10)),
                "bot/α",
                List.of(ok, failed),
                "partial failure",
                new TokenCount(2, 1, 30, 33, "o200k_base"),
                TurnState.RAW,
                2,
                "1");

        long conversationId = inTx(emf, store -> {
            Conversation c = store.insert(key, Map.of("topic", "files"), ts);
            store.append(c, turn, ts);
            return c.getId();
        });

        List<TurnRecord> read = inTx(
                emf, store -> store.turns(store.find(key.tenantId(), conversationId, false), 0, Integer.MAX_VALUE));

        assertThat(read).hasSize(1);
        TurnRecord back = read.get(0);
        assertThat(back.sequence()).isEqualTo(1L);
        assertThat(back.timestamp()).isEqualTo(ts);
        assertThat(back.toolInvocations()).hasSize(2);
        assertThat(back.toolInvocations().get(1).output()).isNull();
        assertThat(back.toolInvocations().get(1).status()).isEqualTo(InvocationStatus.ERROR);
        // JSON numbers come back as the canonical parser reads them; compare through canonical JSON.
        assertThat(org.agentmemory.platform.json.CanonicalJson.write(
                        back.toolInvocations().get(0).input()))
                .isEqualTo("{\"nested\":{\"k\":[1,2.5,\"x\"]},\"path\":\"/tmp/a b.txt\"}");
        TurnRecord expected = turn.withIdentity("t-1", 1L, turn.userId(), ts, "bot/α", TurnState.RAW, 2)
                .withToolInvocations(
                        List.of(ok.withContent(back.toolInvocations().get(0).input(), ok.output(), ok.error()), failed))
                .withMetadata(back.metadata());
        assertThat(back).isEqualTo(expected);
        assertThat(org.agentmemory.platform.json.CanonicalJson.write(back.metadata()))
                .isEqualTo("{\"model\":\"gpt-4o\",\"usage\":{\"input_tokens\":10}}");
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void aPageOfTurnsCarriesExactlyItsOwnInvocationsInOrdinalOrder(String name, EntityManagerFactory emf) {
        Instant ts = Instant.parse("2026-03-29T01:30:00.123456Z");
        // Two conversations appended to in turn, so that their turns' primary keys interleave; turn i carries
        // i % 4 invocations named after it, in ordinal order.
        long[] ids = inTx(emf, store -> {
            Conversation a = store.insert(ConversationKey.of(null, "page " + name, "a"), null, ts);
            Conversation b = store.insert(ConversationKey.of(null, "page " + name, "b"), null, ts);
            for (int i = 1; i <= 8; i++) {
                for (Conversation c : List.of(a, b)) {
                    List<ToolInvocationRecord> invocations = new ArrayList<>();
                    for (int k = 0; k < i % 4; k++) {
                        invocations.add(new ToolInvocationRecord(
                                c.getSessionId() + i + "-" + k,
                                Map.of("k", k),
                                "out",
                                InvocationStatus.COMPLETED,
                                null,
                                null,
                                null,
                                Map.of(),
                                null));
                    }
                    store.append(
                            c,
                            new TurnRecord(
                                    "t" + i,
                                    null,
                                    "page " + name,
                                    "u" + i,
                                    "a" + i,
                                    null,
                                    List.of(),
                                    ts,
                                    Map.of(),
                                    null,
                                    invocations,
                                    null,
                                    new TokenCount(0, 0, 0, 0, "o200k_base"),
                                    TurnState.RAW,
                                    2,
                                    null),
                            ts);
                }
            }
            return new long[] {a.getId(), b.getId()};
        });

        List<TurnRecord> page = inTx(emf, store -> store.turns(store.find("default", ids[0], false), 2, 5));

        assertThat(page).extracting(TurnRecord::sequence).containsExactly(3L, 4L, 5L, 6L, 7L);
        for (TurnRecord t : page) {
            int i = Integer.parseInt(t.turnId().substring(1));
            assertThat(t.toolInvocations())
                    .extracting(ToolInvocationRecord::toolName)
                    .containsExactlyElementsOf(IntStream.range(0, i % 4)
                            .mapToObj(k -> "a" + i + "-" + k)
                            .toList());
        }
        List<TurnRecord> other =
                inTx(emf, store -> store.turns(store.find("default", ids[1], false), 0, Integer.MAX_VALUE));
        assertThat(other)
                .hasSize(8)
                .allSatisfy(t -> assertThat(t.toolInvocations())
                        .allSatisfy(inv -> assertThat(inv.toolName()).startsWith("b")));
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("hibernateUnits")
    void bulkRowsReadBackAsPersistedOnesAndShareTheirIds(String name, EntityManagerFactory emf) {
        Instant ts = Instant.parse("2026-03-29T01:30:00.123456Z");
        ToolInvocationRecord ok = new ToolInvocationRecord(
                "read_file",
                Map.of("path", "/tmp/a b.txt"),
                "contents 漢字",
                InvocationStatus.COMPLETED,
                null,
                12L,
                4000,
                Map.of("output", "sha256:ab"),
                "wm:1");
        ToolInvocationRecord failed = new ToolInvocationRecord(
                "bash",
                Map.of("command", "ls /nope"),
                null,
                InvocationStatus.ERROR,
                "ls: cannot access '/nope'",
                null,
                null,
                Map.of(),
                null);
        TurnRecord full = new TurnRecord(
                "t-1",
                null,
                "user \"q\" 😀",
                "read it",
                "done",
                "ctx",
                List.of("read_file", "bash"),
                ts,
                Map.of("model", "gpt-4o", "usage", Map.of("input_tokens", 10)),
                "bot/α",
                List.of(ok, failed),
                "partial failure",
                new TokenCount(2, 1, 30, 33, "o200k_base"),
                TurnState.RAW,
                2,
                "1");
        // Before the Gregorian reform: java.sql.Timestamp and java.time disagree there, so the bulk writer must bind
        // instants exactly as the mapping does, or they come back shifted by days.
        Instant ancient = Instant.parse("1500-03-01T12:00:00.123456Z");
        TurnRecord bare = new TurnRecord(
                "t-2",
                null,
                "user \"q\" 😀",
                "",
                "",
                null,
                List.of(),
                ancient,
                Map.of(),
                null,
                List.of(),
                null,
                new TokenCount(0, 0, 0, 0, "o200k_base"),
                TurnState.RAW,
                2,
                null);
        float[] vector = {0.25f, -1.5f, 3.0f};

        // The same two turns, one conversation through the persistence context and one through the bulk writer,
        // plus a persisted turn after the bulk rows in the same transaction (the ids must not collide).
        long[] ids = Databases.inTransaction(emf, em -> {
            ConversationStore store = new ConversationStore(em);
            Conversation persisted = store.insert(ConversationKey.of("bot/α", "bulk " + name, "orm"), null, ts);
            Conversation bulk = store.insert(ConversationKey.of("bot/α", "bulk " + name, "jdbc"), null, ts);
            store.append(persisted, full, ts);
            store.append(persisted, bare, ts);
            TurnRows rows = new TurnRows();
            for (TurnRecord t : List.of(full, bare)) {
                org.agentmemory.conversation.entity.Turn turn = store.newTurn(bulk, t, ts);
                rows.add(turn);
                org.agentmemory.conversation.control.TurnMessages.messages(turn, t, Map.of("read it", vector), "m1")
                        .forEach(rows::add);
            }
            assertThat(rows.messages()).hasSize(2); // the bare turn has no text to search
            EntityMappings mappings = new EntityMappings(em);
            rows.assignIds(mappings);
            int[] inserted = new int[1];
            em.unwrap(org.hibernate.Session.class).doWork(con -> inserted[0] = rows.insert(con, mappings));
            assertThat(inserted[0]).isEqualTo(2 + 2 + 2);
            store.append(persisted, bare.withIdentity("t-3", null, bare.userId(), ts, null, TurnState.RAW, 2), ts);
            return new long[] {
                persisted.getId(), bulk.getId(), rows.messages().get(0).getId()
            };
        });

        List<TurnRecord> viaOrm = inTx(emf, store -> store.turns(store.find("default", ids[0], false), 0, 2));
        List<TurnRecord> viaJdbc = inTx(emf, store -> store.turns(store.find("default", ids[1], false), 0, 10));
        assertThat(viaJdbc).hasSize(2);
        assertThat(viaJdbc).isEqualTo(viaOrm);
        assertThat(viaJdbc).extracting(TurnRecord::timestamp).containsExactly(ts, ancient);
        assertThat(viaJdbc.get(0).toolInvocations().get(1).output()).isNull();
        assertThat(viaJdbc.get(0).toolInvocations().get(0).omitted()).containsEntry("output", "sha256:ab");

        org.agentmemory.conversation.entity.TurnMessage message = Databases.inTransaction(
                emf, em -> em.find(org.agentmemory.conversation.entity.TurnMessage.class, ids[2]));
        assertThat(message.getConversationId()).isEqualTo(ids[1]);
        assertThat(message.getRole()).isEqualTo("user");
        assertThat(message.getChatbotKey()).isEqualTo("bot/α");
        assertThat(message.getOccurredAt()).isEqualTo(ts);
        assertThat(message.getEmbedding()).containsExactly(vector);
        assertThat(message.getEmbeddingModel()).isEqualTo("m1");
        List<Long> allTurnIds = Databases.inTransaction(
                emf,
                em -> em.createQuery("SELECT t.id FROM Turn t WHERE t.conversation.id IN (:a, :b)", Long.class)
                        .setParameter("a", ids[0])
                        .setParameter("b", ids[1])
                        .getResultList());
        assertThat(allTurnIds).hasSize(5).doesNotHaveDuplicates();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void lockingReadByKeyReturnsTheStoredConversationWholly(String name, EntityManagerFactory emf) {
        Instant ts = Instant.parse("2026-03-29T01:30:00.123456Z");
        ConversationKey odd = ConversationKey.of("bot/α", "lock \"q\" 😀 漢字", "a%2Fb " + name);
        long id = inTx(
                emf,
                store -> store.insert(odd, Map.of("topic", "locks", "n", 2), ts).getId());

        Conversation byKey = inTx(emf, store -> store.findByKey(odd, true));
        assertThat(byKey.getId()).isEqualTo(id);
        assertThat(byKey.getUserId()).isEqualTo(odd.userId());
        assertThat(byKey.getSessionId()).isEqualTo(odd.sessionId());
        assertThat(byKey.getChatbotId()).isEqualTo("bot/α");
        assertThat(byKey.getCreatedAt()).isEqualTo(ts);
        assertThat(org.agentmemory.platform.json.CanonicalJson.write(byKey.getMetadata()))
                .isEqualTo("{\"n\":2,\"topic\":\"locks\"}");
        Conversation slashNotEscaped =
                inTx(emf, store -> store.findByKey(ConversationKey.of("bot/α", odd.userId(), "a/b " + name), true));
        assertThat(slashNotEscaped).isNull();
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("hibernateUnits")
    void rowsLockedInJdbcReadAsTheMappingReadsThemAndAreWrittenBackOnlyWhenChanged(
            String name, EntityManagerFactory emf) {
        // Before the Gregorian reform: the instants must be read through the mapping's extractor, not shifted.
        Instant ancient = Instant.parse("1500-03-01T12:00:00.123456Z");
        Instant ts = Instant.parse("2026-03-29T01:30:00.123456Z");
        ConversationKey odd = ConversationKey.of("bot/α", "jdbc lock \"q\" 😀 漢字", "a%2Fb " + name);
        List<Long> ids = inTx(emf, store -> {
            List<Long> made = new ArrayList<>();
            made.add(
                    store.insert(odd, Map.of("topic", "locks", "n", 2), ancient).getId());
            for (int i = 0; i < 4; i++) {
                made.add(store.insert(ConversationKey.of(null, "jdbc-lock-" + name, "s" + i), null, ts)
                        .getId());
            }
            return made;
        });

        // 1, 3 (padded to 4) and 5 (padded to 8) ids, given out of order; each reads as the persistence context does.
        for (List<Long> wanted : List.of(
                List.of(ids.get(2)),
                List.of(ids.get(3), ids.get(1), ids.get(2)),
                List.of(ids.get(4), ids.get(0), ids.get(3), ids.get(1), ids.get(2)))) {
            Map<Long, Conversation> locked = inTx(emf, store -> store.lockAll(new LockedConversations(), wanted));
            assertThat(locked).containsOnlyKeys(wanted);
            for (Map.Entry<Long, Conversation> e : locked.entrySet()) {
                Conversation managed = inTx(emf, store -> store.find("default", e.getKey(), false));
                assertThat(e.getValue()).usingRecursiveComparison().isEqualTo(managed);
            }
        }
        Conversation oddRow = inTx(emf, store -> store.lockAll(new LockedConversations(), List.of(ids.get(0), -1L)))
                .get(ids.get(0));
        assertThat(oddRow.getCreatedAt()).isEqualTo(ancient);
        assertThat(TurnMapper.key(oddRow)).isEqualTo(odd);
        assertThat(org.agentmemory.platform.json.CanonicalJson.write(oddRow.getMetadata()))
                .isEqualTo("{\"n\":2,\"topic\":\"locks\"}");

        // One gets a turn's sequence, one new metadata, one nothing: only the first two are written, each one
        // version up; locking an id again in the same set returns the instance already read.
        Instant later = ts.plusSeconds(60);
        long[] versions = inTx(emf, store -> new long[] {
            store.find("default", ids.get(1), false).getVersion(),
            store.find("default", ids.get(2), false).getVersion(),
            store.find("default", ids.get(3), false).getVersion()
        });
        int written = Databases.inTransaction(emf, em -> {
            ConversationStore store = new ConversationStore(em);
            LockedConversations set = new LockedConversations();
            Map<Long, Conversation> locked = store.lockAll(set, List.of(ids.get(3), ids.get(1), ids.get(2)));
            assertThat(store.lockAll(set, List.of(ids.get(1))).get(ids.get(1))).isSameAs(locked.get(ids.get(1)));
            assertThat(set.conversations())
                    .extracting(Conversation::getId)
                    .containsExactly(ids.get(1), ids.get(2), ids.get(3));
            assertThat(locked.get(ids.get(1)).nextSequence(later)).isEqualTo(1L);
            locked.get(ids.get(2)).setMetadata(Map.of("topic", "new", "emoji", "😀"), later);
            EntityMappings mappings = new EntityMappings(em);
            int n = em.unwrap(org.hibernate.Session.class).doReturningWork(con -> set.write(con, mappings));
            assertThatThrownBy(() -> em.unwrap(org.hibernate.Session.class).doWork(con -> set.write(con, mappings)))
                    .isInstanceOf(IllegalStateException.class);
            return n;
        });
        assertThat(written).isEqualTo(2);
        Conversation sequenced = inTx(emf, store -> store.find("default", ids.get(1), false));
        assertThat(sequenced.getLastSeq()).isEqualTo(1L);
        assertThat(sequenced.getTurnCount()).isEqualTo(1L);
        assertThat(sequenced.getUpdatedAt()).isEqualTo(later);
        assertThat(sequenced.getVersion()).isEqualTo(versions[0] + 1);
        Conversation described = inTx(emf, store -> store.find("default", ids.get(2), false));
        assertThat(described.getMetadata()).containsOnly(Map.entry("topic", "new"), Map.entry("emoji", "😀"));
        assertThat(described.getUpdatedAt()).isEqualTo(later);
        assertThat(described.getLastSeq()).isZero();
        assertThat(described.getVersion()).isEqualTo(versions[1] + 1);
        Conversation untouched = inTx(emf, store -> store.find("default", ids.get(3), false));
        assertThat(untouched.getUpdatedAt()).isEqualTo(ts);
        assertThat(untouched.getVersion()).isEqualTo(versions[2]);
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void idsByKeyAndStoredTurnIdsAreFoundExactly(String name, EntityManagerFactory emf) {
        Instant now = Instant.parse("2026-01-04T00:00:00Z");
        String user = "ids \"q\" 😀 漢字 " + name;
        ConversationKey slash = ConversationKey.of(null, user, "a/b");
        ConversationKey escaped = ConversationKey.of(null, user, "a%2Fb");
        ConversationKey bot = ConversationKey.of("bot/α", user, "a/b");
        ConversationKey other = ConversationKey.of(null, user, "not asked for");
        Map<ConversationKey, Long> ids = inTx(emf, store -> {
            Map<ConversationKey, Long> made = new LinkedHashMap<>();
            for (ConversationKey k : List.of(slash, escaped, bot, other)) {
                Conversation c = store.insert(k, null, now);
                made.put(k, c.getId());
                for (int t = 0; t < 2; t++) {
                    String turnId = k.sessionId() + "#" + t;
                    store.append(
                            c,
                            TurnRecord.of(turnId, "q", "a")
                                    .withIdentity(turnId, null, user, now, k.chatbotId(), TurnState.RAW, 2)
                                    .withTokenCount(new TokenCount(1, 1, 0, 2, "o200k_base")),
                            now);
                }
            }
            return made;
        });

        // The default chatbot (null) and 'bot/α' are different keys; 'a/b' and 'a%2Fb' never collide.
        ConversationKey absent = ConversationKey.of("bot/α", user, "a%2Fb");
        Map<ConversationKey, Long> found =
                inTx(emf, store -> store.findIdsByKeys("default", List.of(slash, escaped, bot, absent)));
        assertThat(found)
                .containsOnly(
                        Map.entry(slash, ids.get(slash)),
                        Map.entry(escaped, ids.get(escaped)),
                        Map.entry(bot, ids.get(bot)));
        Map<ConversationKey, Long> elsewhere =
                inTx(emf, store -> store.findIdsByKeys("another-tenant", List.of(slash)));
        assertThat(elsewhere).isEmpty();

        // 300 keys: two queries, the second padded.
        List<ConversationKey> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add(ConversationKey.of(null, "many-" + name, "s" + i));
        }
        inTx(emf, store -> {
            many.forEach(k -> store.insert(k, null, now));
            return null;
        });
        Map<ConversationKey, Long> all = inTx(emf, store -> store.findIdsByKeys("default", many));
        assertThat(all).containsOnlyKeys(many);
        assertThat(new HashSet<>(all.values())).hasSize(300);

        // Turn ids by conversation: 'a/b#0' is stored in two of them, 'a%2Fb#1' in one, 'x' nowhere.
        // Only the pairs asked for: 'a%2Fb#1' is asked of the 'a/b' conversation, where it is not stored.
        Map<Long, Set<String>> stored = inTx(
                emf,
                store -> store.existingTurnIds(Map.of(
                        ids.get(bot),
                        List.of("a/b#0", "x"),
                        ids.get(slash),
                        List.of("a/b#0", "a/b#1", "a%2Fb#1"),
                        ids.get(escaped),
                        List.of("a%2Fb#1", "a%2Fb#1"))));
        assertThat(stored)
                .containsOnly(
                        Map.entry(ids.get(slash), Set.of("a/b#0", "a/b#1")),
                        Map.entry(ids.get(bot), Set.of("a/b#0")),
                        Map.entry(ids.get(escaped), Set.of("a%2Fb#1")));
        // 600 pairs: two queries, the second padded.
        Map<Long, List<String>> many600 = new LinkedHashMap<>();
        for (int i = 0; i < 600; i++) {
            many600.computeIfAbsent(ids.get(List.of(slash, escaped, bot).get(i % 3)), k -> new ArrayList<>())
                    .add(i < 3 ? List.of("a/b#1", "a%2Fb#0", "a/b#0").get(i) : "absent-" + i);
        }
        Map<Long, Set<String>> found600 = inTx(emf, store -> store.existingTurnIds(many600));
        assertThat(found600)
                .containsOnly(
                        Map.entry(ids.get(slash), Set.of("a/b#1")),
                        Map.entry(ids.get(escaped), Set.of("a%2Fb#0")),
                        Map.entry(ids.get(bot), Set.of("a/b#0")));
        Set<String> one = inTx(
                emf,
                store -> store.existingTurnIds(
                        store.find("default", ids.get(other), false), List.of("not asked for#1", "a/b#1")));
        assertThat(one).containsExactly("not asked for#1");
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("hibernateUnits")
    void lockingWithTurnIdsLocksTheRowsAndFindsTheStoredIdsUnderTheLocks(String name, EntityManagerFactory emf)
            throws Exception {
        Instant now = Instant.parse("2026-02-01T00:00:00Z");
        String user = "lock+ids \"q\" 😀 漢字 " + name;
        List<Long> ids = inTx(emf, store -> {
            List<Long> made = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Conversation c = store.insert(ConversationKey.of(null, user, "a/b " + i), null, now);
                made.add(c.getId());
                String turnId = "t/" + i + " 😀";
                store.append(
                        c,
                        TurnRecord.of(turnId, "q", "a")
                                .withIdentity(turnId, null, user, now, null, TurnState.RAW, 2)
                                .withTokenCount(new TokenCount(1, 1, 0, 2, "o200k_base")),
                        now);
            }
            return made;
        });

        // Three rows (padded to 4) and an id without a row; each conversation is asked about its own stored id, an
        // absent one and the id stored in another conversation: only its own is found.
        Map<Long, List<String>> asked = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            asked.put(ids.get(i), List.of("t/" + i + " 😀", "absent", "t/" + ((i + 1) % 3) + " 😀"));
        }
        List<Long> wanted = List.of(ids.get(2), -1L, ids.get(0), ids.get(1));
        ConversationStore.LockedTurnIds found =
                inTx(emf, store -> store.lockAll(new LockedConversations(), wanted, asked));
        assertThat(found.locked()).containsOnlyKeys(ids);
        for (int i = 0; i < 3; i++) {
            assertThat(found.locked().get(ids.get(i)).getLastSeq()).isEqualTo(1L);
            assertThat(found.stored()).containsEntry(ids.get(i), Set.of("t/" + i + " 😀"));
        }
        // Nothing asked: the rows are locked all the same; rows locked already in the set are not read again.
        ConversationStore.LockedTurnIds none =
                inTx(emf, store -> store.lockAll(new LockedConversations(), ids, Map.of()));
        assertThat(none.locked()).containsOnlyKeys(ids);
        assertThat(none.stored()).isEmpty();
        inTx(emf, store -> {
            LockedConversations set = new LockedConversations();
            Map<Long, Conversation> first = store.lockAll(set, List.of(ids.get(0)));
            ConversationStore.LockedTurnIds again =
                    store.lockAll(set, List.of(ids.get(0), ids.get(1)), Map.of(ids.get(0), List.of("t/0 😀")));
            assertThat(again.locked().get(ids.get(0))).isSameAs(first.get(ids.get(0)));
            assertThat(again.locked()).containsOnlyKeys(ids.get(0), ids.get(1));
            assertThat(again.stored()).containsOnly(Map.entry(ids.get(0), Set.of("t/0 😀")));
            return null;
        });

        // The rows stay locked until the transaction ends: another transaction's writer waits for them.
        java.util.concurrent.CountDownLatch locked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.ExecutorService other = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Future<?> holder = other.submit(() -> inTx(emf, store -> {
                store.lockAll(new LockedConversations(), List.of(ids.get(1)), Map.of(ids.get(1), List.of("t/1 😀")));
                locked.countDown();
                try {
                    release.await(30, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            }));
            assertThat(locked.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            java.util.concurrent.Future<Long> waiter = other.submit(() -> inTx(
                    emf,
                    store -> store.lockAll(new LockedConversations(), List.of(ids.get(1)))
                            .get(ids.get(1))
                            .getLastSeq()));
            Thread.sleep(300);
            assertThat(waiter.isDone())
                    .as("a second lock of the row waits for the first transaction")
                    .isFalse();
            release.countDown();
            holder.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(waiter.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1L);
        } finally {
            release.countDown();
            other.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void pagesOf250SessionsWithEqualTimestampsHaveNoGapsOrRepeats(String name, EntityManagerFactory emf) {
        Instant sameInstant = Instant.parse("2026-01-01T00:00:00Z");
        String user = "pager-" + name;
        inTx(emf, store -> {
            for (int i = 0; i < 250; i++) {
                store.insert(ConversationKey.of(null, user, "s" + i), null, sameInstant);
            }
            return null;
        });
        Set<Long> seen = new HashSet<>();
        List<Integer> sizes = new ArrayList<>();
        long before = Long.MAX_VALUE;
        while (true) {
            long bound = before;
            List<Conversation> rows = inTx(emf, store -> store.list("default", user, false, null, bound, 100));
            List<Conversation> page = rows.size() > 100 ? rows.subList(0, 100) : rows;
            sizes.add(page.size());
            page.forEach(c ->
                    assertThat(seen.add(c.getId())).as("repeat %s", c.getId()).isTrue());
            if (rows.size() <= 100) {
                break;
            }
            before = page.get(page.size() - 1).getId();
        }
        assertThat(sizes).containsExactly(100, 100, 50);
        assertThat(seen).hasSize(250);
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void chatbotCountsAndUsers(String name, EntityManagerFactory emf) {
        String bot = "stats-" + name;
        Instant now = Instant.parse("2026-01-02T00:00:00Z");
        inTx(emf, store -> {
            for (String user : List.of("u1", "u2", "u3")) {
                for (int s = 0; s < 2; s++) {
                    Conversation c = store.insert(ConversationKey.of(bot, user, "s" + s), null, now);
                    for (int t = 0; t < (user.equals("u1") ? 3 : 1); t++) {
                        store.append(
                                c,
                                TurnRecord.of("t" + t, "q", "a")
                                        .withIdentity("t" + t, null, user, now, bot, TurnState.RAW, 2)
                                        .withTokenCount(new TokenCount(1, 1, 0, 2, "o200k_base")),
                                now);
                    }
                }
            }
            return null;
        });
        long[] counts = inTx(emf, store -> store.chatbotCounts("default", bot));
        assertThat(counts).containsExactly(6, 10, 3);
        List<String> firstTwo = inTx(emf, store -> store.chatbotUsers("default", bot, null, 2));
        assertThat(firstTwo).containsExactly("u1", "u2", "u3");
        List<String> rest = inTx(emf, store -> store.chatbotUsers("default", bot, "u2", 2));
        assertThat(rest).containsExactly("u3");
    }

    @ParameterizedTest(name = "{0}", autoCloseArguments = false)
    @MethodSource("units")
    void clearKeepsTheConversationAndDeleteRemovesEverything(String name, EntityManagerFactory emf) {
        ConversationKey key = ConversationKey.of(null, "clear-" + name, "s");
        Instant now = Instant.parse("2026-01-03T00:00:00Z");
        long id = inTx(emf, store -> {
            Conversation c = store.insert(key, null, now);
            TurnRecord t = TurnRecord.of("t", "q", "a")
                    .withIdentity("t", null, key.userId(), now, null, TurnState.RAW, 2)
                    .withTokenCount(new TokenCount(1, 1, 1, 3, "o200k_base"))
                    .withToolInvocations(List.of(ToolInvocationRecord.of("x", Map.of(), "out")));
            store.append(c, t, now);
            store.append(c, t.withIdentity("t2", null, key.userId(), now, null, TurnState.RAW, 2), now);
            return c.getId();
        });
        long removed = inTx(emf, store -> store.clear(store.find("default", id, true), now.plusSeconds(1)));
        assertThat(removed).isEqualTo(2);
        Conversation after = inTx(emf, store -> store.find("default", id, false));
        assertThat(after.getTurnCount()).isZero();
        assertThat(after.getLastSeq()).isEqualTo(2);
        Boolean deleted = inTx(emf, store -> store.delete("default", id));
        Conversation gone = inTx(emf, store -> store.find("default", id, false));
        Boolean deletedAgain = inTx(emf, store -> store.delete("default", id));
        assertThat(deleted).isTrue();
        assertThat(gone).isNull();
        assertThat(deletedAgain).isFalse();
    }
}
