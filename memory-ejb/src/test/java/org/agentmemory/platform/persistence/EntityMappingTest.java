package org.agentmemory.platform.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.agentmemory.answer.entity.Answer;
import org.agentmemory.api.brain.DreamCycleReport;
import org.agentmemory.audit.entity.AuditEntry;
import org.agentmemory.brain.entity.BrainPage;
import org.agentmemory.brain.entity.DreamReport;
import org.agentmemory.brain.entity.DreamSchedule;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.conversation.entity.Summary;
import org.agentmemory.conversation.entity.ToolInvocation;
import org.agentmemory.conversation.entity.Turn;
import org.agentmemory.conversation.entity.TurnMessage;
import org.agentmemory.episodic.entity.Episode;
import org.agentmemory.omission.entity.Omission;
import org.agentmemory.omission.entity.OmissionTurn;
import org.agentmemory.pii.entity.PiiErasure;
import org.agentmemory.pii.entity.PiiMessage;
import org.agentmemory.pii.entity.PiiThread;
import org.agentmemory.platform.cluster.ClusterLease;
import org.agentmemory.skills.entity.RegisteredAgent;
import org.agentmemory.skills.entity.Skill;
import org.agentmemory.testsupport.Databases;
import org.agentmemory.working.entity.WorkingItem;
import org.agentmemory.working.entity.WorkingSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every entity of the service under both persistence providers (Hibernate ORM, which WildFly ships and the Liberty
 * EAR bundles, and EclipseLink, Open Liberty's default) on both databases (the embedded H2 default and PostgreSQL),
 * over the tables of the Flyway migrations rather than generated ones: each entity is persisted, flushed, the
 * persistence context cleared (and EclipseLink's shared cache is off), and the row read back must equal the written
 * entity field by field, converted columns (JSON, vectors, instants) included. Hibernate also validates the mapping
 * against the tables when the unit starts; EclipseLink 4.0 has no such validation, so for it these round trips are
 * the check that every mapped column exists with a compatible type. What does not run under EclipseLink beyond the
 * mapping: docs/eclipselink.md (issue 37 item 4).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EntityMappingTest {

    /** Microseconds: the precision of the TIMESTAMP(6) columns. */
    private static final Instant T0 = Instant.parse("2026-03-29T01:30:00.123456Z");

    private static final Instant T1 = Instant.parse("2026-03-30T23:59:59.654321Z");

    private static final float[] VECTOR = {0.25f, -1.5f, 3.0e-7f, 1.0f};

    /** One unit per (provider, database), each on its own fresh database. */
    private final Map<String, Unit> units = new LinkedHashMap<>();

    private record Unit(DataSource dataSource, EntityManagerFactory emf) {}

    @BeforeAll
    void start() {
        for (ScannedUnit.Provider provider : ScannedUnit.Provider.values()) {
            String name = provider.name().toLowerCase(java.util.Locale.ROOT);
            DataSource h2 = Databases.freshH2();
            units.put(name + "-h2", new Unit(h2, ScannedUnit.over(provider, h2)));
            DataSource pg = Databases.freshPostgres("agent_memory_mapping_" + name);
            units.put(name + "-postgresql", new Unit(pg, ScannedUnit.over(provider, pg)));
        }
    }

    @AfterAll
    void stop() {
        units.values().forEach(u -> u.emf().close());
    }

    Stream<Arguments> units() {
        return units.keySet().stream().map(Arguments::of);
    }

    /**
     * A sample of each entity: given an entity manager in a transaction (to persist what it refers to), a new,
     * not yet persisted instance with every field the schema holds set to a value that is not the default.
     */
    static Map<Class<?>, Function<EntityManager, Object>> samples() {
        Map<Class<?>, Function<EntityManager, Object>> samples = new LinkedHashMap<>();
        samples.put(Conversation.class, em -> conversation("conversation"));
        // A turn owns its invocations (cascade): both sides of the association are set, as ConversationStore does.
        samples.put(Turn.class, em -> withInvocation(turn(persisted(em, conversation("turn")))));
        samples.put(
                ToolInvocation.class,
                em -> persisted(em, withInvocation(turn(persisted(em, conversation("tool")))))
                        .getInvocations()
                        .get(0));
        samples.put(TurnMessage.class, EntityMappingTest::turnMessage);
        samples.put(Summary.class, em -> summary(persisted(em, conversation("summary"))));
        samples.put(
                Omission.class,
                em -> new Omission(
                        "t-conv",
                        persisted(em, conversation("omission")).getId(),
                        "c-1",
                        "omitted 漢字",
                        11,
                        "bash",
                        T0,
                        T1));
        samples.put(
                OmissionTurn.class,
                em -> new OmissionTurn(
                        "t-conv", persisted(em, conversation("omission-turn")).getId(), "turn-7", "c-1", 3));
        samples.put(Answer.class, em -> answer());
        samples.put(Episode.class, em -> episode());
        samples.put(AuditEntry.class, em -> new AuditEntry(T0, "t-audit", "alice", "episodes.erase", "agent-1", 2, 7));
        samples.put(BrainPage.class, em -> brainPage());
        samples.put(DreamSchedule.class, em -> dreamSchedule());
        samples.put(DreamReport.class, em -> dreamReport());
        samples.put(PiiMessage.class, em -> piiMessage());
        samples.put(PiiThread.class, em -> new PiiThread("t-pii", "user-1", "thread-hash", true, T0));
        samples.put(PiiErasure.class, em -> new PiiErasure("t-pii", "user-key-hash", T1));
        samples.put(WorkingSession.class, em -> workingSession("session-a"));
        samples.put(WorkingItem.class, em -> workingItem(persisted(em, workingSession("session-b"))));
        samples.put(Skill.class, em -> skill());
        samples.put(RegisteredAgent.class, em -> registeredAgent());
        return samples;
    }

    Stream<Arguments> entities() {
        return units.keySet().stream()
                .flatMap(unit -> samples().entrySet().stream()
                        .map(e -> Arguments.of(unit, e.getKey().getSimpleName(), e.getValue())));
    }

    @Test
    void everyEntityOfTheMainClassesIsInTheUnitAndHasASampleOrIsReadOnly() {
        List<String> sampled = Stream.concat(samples().keySet().stream(), Stream.of(ClusterLease.class))
                .map(Class::getName)
                .sorted()
                .toList();
        assertThat(ScannedUnit.entityClassNames()).containsExactlyElementsOf(sampled);
        assertThat(sampled).contains(Episode.class.getName(), TurnMessage.class.getName());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("entities")
    void persistedEntityReadsBackEqualFieldByField(String unit, String name, Function<EntityManager, Object> sample) {
        EntityManagerFactory emf = units.get(unit).emf();
        Databases.inTransaction(emf, em -> {
            Object written = sample.apply(em);
            em.persist(written);
            em.flush();
            em.clear();
            Object id = emf.getPersistenceUnitUtil().getIdentifier(written);
            assertThat(id).as("%s id after flush", name).isNotNull();
            Object read = em.find(written.getClass(), id);
            assertThat(read).as(name).isNotNull().isNotSameAs(written);
            // A lazy association reads back as a provider proxy (Hibernate), whose fields are the proxy's, not the
            // row's: an associated entity is compared by its identifier, and has its own round trip.
            var util = emf.getPersistenceUnitUtil();
            assertThat(read)
                    .as(name)
                    .usingRecursiveComparison()
                    .withEqualsForFieldsMatchingRegexes(
                            (a, b) -> a == b
                                    || a != null
                                            && b != null
                                            && util.getIdentifier(a).equals(util.getIdentifier(b)),
                            "(.*\\.)?conversation",
                            "(.*\\.)?turn")
                    .isEqualTo(written);
            return null;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("units")
    void clusterLeaseWrittenBySqlReadsBackThroughTheMapping(String unit) throws Exception {
        DataSource dataSource = units.get(unit).dataSource();
        EntityManagerFactory emf = units.get(unit).emf();
        // The service never persists a lease: LeaseTable creates and updates its rows with SQL; JPA only reads them.
        try (var connection = dataSource.getConnection();
                var insert = connection.prepareStatement("INSERT INTO cluster_lease (task, holder, lease_until,"
                        + " last_started, last_finished, run_count, last_rows, last_result)"
                        + " VALUES ('omission-purge', 'node-1', ?, ?, ?, 12, 345, 'ok')")) {
            insert.setObject(1, T1.atOffset(java.time.ZoneOffset.UTC));
            insert.setObject(2, T0.atOffset(java.time.ZoneOffset.ofHours(13)));
            insert.setObject(3, T0.plusSeconds(2).atOffset(java.time.ZoneOffset.UTC));
            insert.executeUpdate();
        }
        ClusterLease lease = Databases.inTransaction(emf, em -> em.find(ClusterLease.class, "omission-purge"));
        assertThat(lease.getTask()).isEqualTo("omission-purge");
        assertThat(lease.getHolder()).isEqualTo("node-1");
        assertThat(lease.getLeaseUntil()).isEqualTo(T1);
        assertThat(lease.getLastStarted()).isEqualTo(T0);
        assertThat(lease.getLastFinished()).isEqualTo(T0.plusSeconds(2));
        assertThat(lease.getRunCount()).isEqualTo(12L);
        assertThat(lease.getLastRows()).isEqualTo(345L);
        assertThat(lease.getLastResult()).isEqualTo("ok");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("units")
    void vectorAndJsonColumnsKeepTheirValuesNotJustTheirShape(String unit) {
        EntityManagerFactory emf = units.get(unit).emf();
        // A guard for the recursive comparison above: the converted values themselves, on one entity.
        Episode written = episode();
        Databases.inTransaction(emf, em -> {
            em.persist(written);
            return null;
        });
        Episode read = Databases.inTransaction(emf, em -> em.find(Episode.class, written.getId()));
        assertThat(read.getEmbedding()).containsExactly(VECTOR);
        assertThat(read.getMetadata()).containsEntry("source", "unit").containsEntry("nested", Map.of("k", "v"));
        assertThat(read.getRelatedTools()).containsExactly("bash", "read_file");
        assertThat(read.getCreatedAt()).isEqualTo(T0);
        assertThat(read.getExpiresAt()).isEqualTo(T1);
        assertThat(read.getConsolidatedInto()).isEqualTo("page-9");
    }

    private static <T> T persisted(EntityManager em, T entity) {
        em.persist(entity);
        em.flush();
        return entity;
    }

    private static Conversation conversation(String session) {
        return new Conversation("t-conv", "bot/α", "user \"q\" 😀", session, Map.of("channel", "web", "n", 3), T0);
    }

    private static Turn turn(Conversation conversation) {
        Turn turn = new Turn(conversation, conversation.nextSequence(T0));
        turn.setTurnId("turn-" + conversation.getSessionId());
        turn.setUserId(conversation.getUserId());
        turn.setChatbotId("bot/α");
        turn.setUserMessage("hello 漢字");
        turn.setAssistantResponse("hi");
        turn.setContextUsed("ctx");
        turn.setToolsUsed(List.of("bash", "read_file"));
        turn.setOccurredAt(T0);
        turn.setMetadata(Map.of("k", "v"));
        turn.setError("none");
        turn.setTokens(3, 1, 7, 11, "o200k_base");
        turn.setState("COMPLETE");
        turn.setSchemaVersion(2);
        turn.setNormVersion("n1");
        return turn;
    }

    private static Turn withInvocation(Turn turn) {
        turn.addInvocation(invocation(turn));
        return turn;
    }

    private static ToolInvocation invocation(Turn turn) {
        ToolInvocation invocation = new ToolInvocation(turn, 0);
        invocation.setToolName("read_file");
        invocation.setInput("{\"path\":\"/tmp/a b.txt\"}");
        invocation.setOutput("contents");
        invocation.setStatus("COMPLETED");
        invocation.setError("no error");
        invocation.setElapsedMs(12L);
        invocation.setOutputChars(8);
        invocation.setOmitted(Map.of("output", "c-1"));
        invocation.setWmKey("wm:1");
        return invocation;
    }

    private static TurnMessage turnMessage(EntityManager em) {
        Turn turn = persisted(em, turn(persisted(em, conversation("message"))));
        TurnMessage message = new TurnMessage(turn, TurnMessage.USER, "ext-1", "alice", "hello 漢字", "hello");
        message.setEmbedding(VECTOR, "all-minilm-l6-v2");
        return message;
    }

    private static Summary summary(Conversation conversation) {
        Summary summary = new Summary(conversation, T0);
        summary.write(1, "turn-1", 9, "turn-9", 9, 4, "they talked", 3, "o200k_base", "heuristic", T1);
        return summary;
    }

    private static Answer answer() {
        Answer answer = new Answer("t-answer", "agent-1", "turn-3");
        answer.store("why?", "{\"because\":true}", T0);
        return answer;
    }

    private static Episode episode() {
        Episode episode = new Episode(
                java.util.UUID.randomUUID().toString(), "t-ep", "agent-1", "key-" + java.util.UUID.randomUUID());
        episode.setScope("user-1", "session-1", "room-1", "crew-1");
        episode.setTimes(T0, T0.plusSeconds(1), T1);
        episode.setContent("situation", "action", "FAILURE", "details", "IOError", "disk full");
        episode.setReflection("reflection", "lesson", "suggested", "model");
        episode.setClassification("debugging", 7, true);
        episode.setRelated(List.of("bash", "read_file"), List.of("disk"));
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("source", "unit");
        metadata.put("nested", Map.of("k", "v"));
        metadata.put(org.agentmemory.api.episodic.Episode.CONSOLIDATED_INTO, "page-9");
        episode.setMetadata(metadata);
        episode.setEmbedding(VECTOR, "all-minilm-l6-v2");
        return episode;
    }

    private static BrainPage brainPage() {
        BrainPage page = new BrainPage("t-brain", "brain-1", "page-1", "agent-1", T0);
        page.write("Title", "fact", 0.75, "summary", "body", "[\"s1\"]", 42, true, T1);
        page.reinforceInCycle(5);
        page.promoted(T1);
        page.embed(VECTOR, "all-minilm-l6-v2");
        return page;
    }

    private static DreamSchedule dreamSchedule() {
        DreamSchedule schedule = new DreamSchedule("t-dream", "agent-1", 3600, T0);
        schedule.configure(true, 600, T1);
        return schedule;
    }

    private static DreamReport dreamReport() {
        DreamCycleReport outcome = new DreamCycleReport(
                0,
                "agent-1",
                "manual",
                "node-1",
                T0,
                T1,
                10,
                3,
                2,
                1,
                1,
                0,
                8,
                List.of("p1"),
                List.of("p2", "p3"),
                List.of(),
                5,
                1,
                true,
                "deadline",
                T0.minusSeconds(60),
                T1);
        return new DreamReport("t-dream", "agent-1", "manual", "node-1", outcome);
    }

    private static PiiMessage piiMessage() {
        PiiMessage message = new PiiMessage("t-pii", "user-1", "thread-hash", "message-hash", T0);
        message.store("user", 2, "key-1", "ciphertext==", T1);
        return message;
    }

    private static WorkingSession workingSession(String session) {
        WorkingSession workingSession = new WorkingSession("t-work", "agent-1", session, T0);
        workingSession.setContextStack("[\"task\"]", T1);
        return workingSession;
    }

    private static WorkingItem workingItem(WorkingSession session) {
        WorkingItem item = new WorkingItem(
                session, session.takeSeq(T0), "short_term", "note 漢字", Map.of("k", "v"), 0.5, "task", T0);
        item.accessed(T1);
        item.promote("long_term", T1);
        return item;
    }

    private static Skill skill() {
        Skill skill = new Skill("skill-1", "t-skill", "agent-1", "extracted", T0);
        skill.write("Name", "desc", "do it", List.of("bash"), List.of("ex 1"), List.of("ep-1"));
        skill.embed(VECTOR, "all-minilm-l6-v2");
        return skill;
    }

    private static RegisteredAgent registeredAgent() {
        RegisteredAgent agent = new RegisteredAgent("t-skill", "agent-1", T0);
        agent.register("a coding agent", Boolean.TRUE, T1);
        agent.embed(VECTOR, "all-minilm-l6-v2");
        return agent;
    }
}
