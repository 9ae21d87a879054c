package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.control.CompactionOptions;
import org.agentmemory.compaction.control.Compactor;
import org.agentmemory.compaction.control.ContextWindowFitter;
import org.agentmemory.compaction.control.FittedHistory;
import org.agentmemory.compaction.control.PrunePolicies;
import org.agentmemory.conversation.entity.Conversation;
import org.agentmemory.platform.tokens.TokenCounters;
import org.agentmemory.testsupport.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Loading only the tail a compaction can show gives exactly the result of compacting the whole history, on
 * random histories with blank responses (also ones made of no-break spaces), responses that start with blanks,
 * other agents' turns, persisted boundaries anywhere (also outside the tail) and small ceilings; on H2.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HistoryWindowTest {

    private static final Instant NOW = Instant.parse("2026-03-01T08:00:00Z");
    private static final String[] ASSISTANT = {
        "a plain answer with some words",
        "",
        "   ",
        "\u00a0\u00a0",
        " \n\t",
        "  starts with blanks but says something",
        "\nleading newline answer"
    };
    private static final String[] AGENTS = {"planner", "planner", "planner", "booking", null};

    private final ContextWindowFitter fitter =
            new ContextWindowFitter(new Compactor(TokenCounters.defaultCounter(), PrunePolicies.builtIn()));
    private EntityManagerFactory emf;

    @BeforeAll
    void start() {
        emf = Databases.unit("memory-hibernate", Databases.freshH2());
    }

    @AfterAll
    void stop() {
        emf.close();
    }

    @Test
    void theTailGivesTheSameResultAsTheWholeHistory() {
        Random random = new Random(4);
        int compared = 0;
        for (int history = 0; history < 80; history++) {
            int size = random.nextInt(45);
            List<TurnRecord> turns = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                String assistant = ASSISTANT[random.nextInt(4) == 0 ? random.nextInt(ASSISTANT.length) : 0]
                        + (i % 3 == 0 ? "" : " " + i);
                if (random.nextInt(5) == 0) {
                    assistant = ASSISTANT[1 + random.nextInt(4)];
                }
                List<ToolInvocationRecord> tools = random.nextInt(3) == 0
                        ? List.of(ToolInvocationRecord.of(
                                "bash", Map.of("command", "ls " + i), "output line ".repeat(1 + random.nextInt(400))))
                        : List.of();
                turns.add(TurnRecord.of("t" + i, "question " + i, assistant)
                        .withToolInvocations(tools)
                        .withIdentity("t" + i, null, "u", NOW, AGENTS[random.nextInt(AGENTS.length)], TurnState.RAW, 2)
                        .withTokenCount(new TokenCount(0, 0, 0, 0, "not-the-counter")));
            }
            long id = store(history, turns);
            for (int variant = 0; variant < 4; variant++) {
                int maxTurns = 1 + random.nextInt(12);
                String boundary = size == 0 || random.nextBoolean() ? null : "t" + random.nextInt(size);
                String current = random.nextBoolean() ? "planner" : null;
                boolean includeOthers = random.nextBoolean();
                ContextBudget budget = ContextBudget.ofWindow(128000)
                        .withMinVerbatimTurns(Math.min(2, maxTurns))
                        .withMaxTurns(maxTurns);
                int historyTokens = random.nextInt(4) == 0 ? random.nextInt(40) : 200 + random.nextInt(4000);
                CompactionOptions options = new CompactionOptions(
                        boundary, 1.0 + random.nextInt(3) / 4.0, current, includeOthers, Map.of());

                EntityManager em = emf.createEntityManager();
                try {
                    ConversationStore store = new ConversationStore(em);
                    Conversation c = store.find("default", id, false);
                    List<TurnRecord> all = store.turns(c, 0, Integer.MAX_VALUE);
                    FittedHistory whole = fitter.fitWithin(all, budget, historyTokens, options);
                    HistoryWindow.Window window =
                            HistoryWindow.plan(HistoryWindow.scan(em, c), maxTurns, current, includeOthers);
                    List<TurnRecord> tail = store.turns(c, window.afterSequence(), Integer.MAX_VALUE);
                    FittedHistory windowed = HistoryWindow.withOlderDropped(
                            fitter.fitWithin(tail, budget, historyTokens, options), window.olderCandidateIds());
                    assertThat(windowed)
                            .as("history %d variant %d", history, variant)
                            .isEqualTo(whole);
                    assertThat(tail.size()).isLessThanOrEqualTo(all.size());
                    if (window.afterSequence() > 0) {
                        compared++;
                    }
                } finally {
                    em.close();
                }
            }
        }
        assertThat(compared)
                .as("variants where the tail was shorter than the history")
                .isGreaterThan(50);
    }

    @Test
    void thePlanKeepsTheNewestCandidatesAndListsTheOlderOnes() {
        List<HistoryWindow.Row> rows = List.of(
                new HistoryWindow.Row(1, "a", "planner", false),
                new HistoryWindow.Row(2, "b", "planner", true),
                new HistoryWindow.Row(3, "c", "booking", false),
                new HistoryWindow.Row(4, "d", null, false),
                new HistoryWindow.Row(5, "e", "planner", false));
        assertThat(HistoryWindow.plan(rows, 2, "planner", true))
                .isEqualTo(new HistoryWindow.Window(3, List.of("a", "c")));
        assertThat(HistoryWindow.plan(rows, 2, "planner", false)).isEqualTo(new HistoryWindow.Window(3, List.of("a")));
        assertThat(HistoryWindow.plan(rows, 4, "planner", true)).isEqualTo(new HistoryWindow.Window(0, List.of()));
    }

    private long store(int history, List<TurnRecord> turns) {
        EntityManager em = emf.createEntityManager();
        try {
            em.getTransaction().begin();
            ConversationStore store = new ConversationStore(em);
            Conversation c = store.insert(ConversationKey.of("planner", "window-" + history, "s"), null, NOW);
            for (TurnRecord turn : turns) {
                store.append(c, turn, NOW);
            }
            em.getTransaction().commit();
            return c.getId();
        } finally {
            em.close();
        }
    }
}
