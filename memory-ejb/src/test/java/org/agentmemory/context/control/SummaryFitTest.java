package org.agentmemory.context.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.compaction.SummaryMethod;
import org.agentmemory.api.context.ContextOutcome;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.control.SummaryText;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.junit.jupiter.api.Test;

/**
 * A conversation rendered with its Stage 2 summary ({@link ConversationRendering} with {@link SummaryFit}): the
 * summary replaces exactly the turns it covers, and the answer never exceeds the history budget.
 */
class SummaryFitTest {

    private static final TokenCounter COUNTER = TokenCounters.defaultCounter();
    private static final ConversationRendering RENDERING =
            ConversationRendering.configured(Map.of(), Map.of(), COUNTER, 2000, true, true);
    private static final ConversationRendering STAGE2_OFF =
            ConversationRendering.configured(Map.of(), Map.of(), COUNTER, 2000, true, false);

    /** t1..tN at sequences 1..N, each a question and answer of the same filler words, with a word that names the turn. */
    private static List<TurnRecord> history(int count) {
        List<TurnRecord> turns = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            TurnRecord t = TurnRecord.of(
                    "t" + i,
                    "Question marker" + i + " about the shipment of order " + i + " to the Lisbon warehouse?",
                    "Answer marker" + i + ": order " + i + " left the Porto depot on day " + i
                            + " and reaches Lisbon two days later, after customs.");
            turns.add(t.withIdentity(
                    t.turnId(), (long) i, t.userId(), t.timestamp(), t.chatbotId(), t.state(), t.schemaVersion()));
        }
        return turns;
    }

    private static HistorySummary summary(int through, int lines) {
        List<String> text = new ArrayList<>();
        for (int i = 1; i <= lines; i++) {
            text.add("- User: Where is order " + i + "? Assistant: It left Porto on day " + i + ".");
        }
        String joined = String.join("\n", text);
        return new HistorySummary(
                7L,
                "t1",
                "t" + through,
                1,
                through,
                through,
                joined,
                COUNTER.count(joined),
                COUNTER.name(),
                SummaryMethod.EXTRACTIVE,
                1,
                through,
                false,
                Instant.parse("2026-06-01T00:00:00Z"));
    }

    private static ConversationContext render(
            ConversationRendering rendering, List<TurnRecord> turns, HistorySummary summary, int historyTokens) {
        return render(rendering, turns, summary, historyTokens, Map.of(), new AtomicInteger());
    }

    private static ConversationContext render(
            ConversationRendering rendering,
            List<TurnRecord> turns,
            HistorySummary summary,
            int historyTokens,
            int maxTurns) {
        return render(rendering, turns, summary, historyTokens, Map.of(), new AtomicInteger(), maxTurns);
    }

    private static ConversationContext render(
            ConversationRendering rendering,
            List<TurnRecord> turns,
            HistorySummary summary,
            int historyTokens,
            Map<String, Object> metadata,
            AtomicInteger loads) {
        return render(rendering, turns, summary, historyTokens, metadata, loads, 100);
    }

    private static ConversationContext render(
            ConversationRendering rendering,
            List<TurnRecord> turns,
            HistorySummary summary,
            int historyTokens,
            Map<String, Object> metadata,
            AtomicInteger loads,
            int maxTurns) {
        ContextRequest request = ContextRequest.forWindow(200_000)
                .withMaxHistoryTokens(historyTokens)
                .withMaxTurns(maxTurns);
        ResolvedBudget budget;
        try {
            budget = RENDERING.resolve(request);
        } catch (InvalidInputException e) {
            throw new AssertionError(e);
        }
        return rendering.render(
                new ConversationRendering.Stored(7L, null, metadata),
                (ceiling, current, includeOthers) -> {
                    // as the store loads it: the newest maxTurns turns, the older ones as ceiling-dropped candidates
                    int first = Math.max(0, turns.size() - maxTurns);
                    return new ConversationRendering.Tail(
                            turns.subList(first, turns.size()),
                            turns.subList(0, first).stream()
                                    .map(TurnRecord::turnId)
                                    .toList());
                },
                () -> {
                    loads.incrementAndGet();
                    return summary;
                },
                omissions -> true,
                budget,
                request);
    }

    private static long tokens(List<HistoryMessage> messages) {
        return messages.stream().mapToLong(m -> COUNTER.count(m.content())).sum();
    }

    private static void assertWellFormed(ConversationContext context) {
        List<HistoryMessage> messages = context.messages();
        for (int i = 0; i < messages.size(); i++) {
            assertThat(messages.get(i).role()).isEqualTo(i % 2 == 0 ? HistoryMessage.USER : HistoryMessage.ASSISTANT);
            assertThat(messages.get(i).content()).isNotBlank();
        }
        assertThat(messages.size() % 2).isZero();
        assertThat(context.tokensUsed()).isEqualTo(tokens(messages));
        assertThat(context.tokensUsed()).isLessThanOrEqualTo(context.historyBudget());
        assertThat(context.withinBudget()).isTrue();
    }

    @Test
    void withNothingDroppedTheSummaryIsNeitherLoadedNorShown() {
        AtomicInteger loads = new AtomicInteger();

        ConversationContext context = render(RENDERING, history(5), summary(2, 2), 5_000, Map.of(), loads);

        assertThat(context.droppedTurnIds()).isEmpty();
        assertThat(context.summary()).isNull();
        assertThat(loads).hasValue(0);
        assertThat(context.messages().get(0).content()).startsWith("Question marker1 ");
    }

    @Test
    void theSummaryReplacesExactlyTheTurnsItCoversWithinTheBudget() {
        List<TurnRecord> turns = history(40);
        ConversationContext plain = render(STAGE2_OFF, turns, null, 1_200);
        int droppedPlain = plain.droppedTurnIds().size();
        HistorySummary summary = summary(droppedPlain, droppedPlain);

        ConversationContext context = render(RENDERING, turns, summary, 1_200);

        assertWellFormed(context);
        assertThat(droppedPlain).isBetween(5, 25);
        String first = context.messages().get(0).content();
        assertThat(first)
                .startsWith(SummaryText.block(droppedPlain, "t1", "t" + droppedPlain, summary.text()) + "\n\n");
        String all = String.join(
                "\n", context.messages().stream().map(HistoryMessage::content).toList());
        for (int i = 1; i <= droppedPlain; i++) {
            assertThat(all).doesNotContain("marker" + i + " ").doesNotContain("marker" + i + ":");
        }
        assertThat(context.droppedTurnIds().subList(0, droppedPlain)).isEqualTo(plain.droppedTurnIds());
        assertThat(context.summary().lastTurnId()).isEqualTo("t" + droppedPlain);
        assertThat(context.summary().shortened()).isFalse();
        assertThat(context.summary().text()).isEqualTo(summary.text());
        assertThat(context.commit().droppedTurns())
                .isEqualTo(context.droppedTurnIds().size());
        assertThat(context.commit().promptEstimate()).isEqualTo(context.tokensUsed());
        assertThat(context.outcome()).isEqualTo(ContextOutcome.FITTED);
        assertThat(context.note()).contains("A summary of the " + droppedPlain + " earliest turn(s), through turn t");
    }

    @Test
    void aSummaryCoveringMoreThanTheDroppedTurnsReplacesOnlyThoseAndTheRestStayVerbatim() {
        List<TurnRecord> turns = history(40);
        ConversationContext plain = render(STAGE2_OFF, turns, null, 1_500);
        int droppedPlain = plain.droppedTurnIds().size();
        assertThat(droppedPlain).isBetween(3, 19);

        ConversationContext context = render(RENDERING, turns, summary(20, 3), 1_500);

        assertWellFormed(context);
        assertThat(context.summary()).isNotNull();
        assertThat(context.droppedTurnIds().subList(0, droppedPlain)).isEqualTo(plain.droppedTurnIds());
        // the block takes part of the budget, so a few more of the oldest shown turns may go, never all up to t20
        assertThat(context.droppedTurnIds()).hasSizeLessThan(20);
        String all = String.join(
                "\n", context.messages().stream().map(HistoryMessage::content).toList());
        assertThat(all).contains("Question marker20 ");
    }

    @Test
    void aSummaryNeverHidesTurnsThatFitWhenOnlyTheTurnCeilingDrops() {
        List<TurnRecord> turns = history(40);
        ConversationContext plain = render(STAGE2_OFF, turns, null, 100_000, 30);
        assertThat(plain.droppedTurnIds()).hasSize(10);

        ConversationContext context = render(RENDERING, turns, summary(35, 35), 100_000, 30);

        assertWellFormed(context);
        assertThat(context.summary()).isNotNull();
        assertThat(context.droppedTurnIds()).isEqualTo(plain.droppedTurnIds());
        String all = String.join(
                "\n", context.messages().stream().map(HistoryMessage::content).toList());
        for (int i = 11; i <= 40; i++) {
            assertThat(all).contains("Question marker" + i + " ");
        }
    }

    @Test
    void aSummaryOverItsShareShowsItsNewestLines() throws InvalidInputException {
        List<TurnRecord> turns = history(40);
        HistorySummary large = summary(10, 200);

        ConversationContext context = render(RENDERING, turns, large, 1_200);

        assertWellFormed(context);
        assertThat(context.summary().shortened()).isTrue();
        assertThat(context.summary().text())
                .endsWith(SummaryText.lines(large.text()).get(199));
        assertThat(large.text()).endsWith(context.summary().text());
        int block = COUNTER.count(
                SummaryText.block(10, "t1", "t10", context.summary().text()));
        assertThat(block)
                .isLessThanOrEqualTo(SummaryFit.share(RENDERING.resolve(null).budget(), 1_200));
        assertThat(context.note()).contains("its newest lines only");
    }

    @Test
    void theAnswerNeverExceedsTheBudgetWhateverTheBudgetSummaryAndCalibration() {
        List<TurnRecord> turns = history(40);
        Map<String, Object> calibrated = Map.of("compaction", Map.of("calibration", 1.7, "samples", 3));
        int shown = 0;
        int runs = 0;
        for (int h = 0; h <= 3_000; h += 41) {
            for (int lines : new int[] {1, 8, 60}) {
                for (Map<String, Object> metadata : List.of(Map.<String, Object>of(), calibrated)) {
                    ConversationContext context =
                            render(RENDERING, turns, summary(12, lines), h, metadata, new AtomicInteger());
                    assertWellFormed(context);
                    double factor = Math.max(1.0, context.calibration());
                    assertThat(Math.ceil(factor * context.tokensUsed()))
                            .as("h=%d lines=%d calibration=%s", h, lines, context.calibration())
                            .isLessThanOrEqualTo(h);
                    runs++;
                    if (context.summary() != null) {
                        shown++;
                        assertThat(context.messages().get(0).content()).startsWith("<earlier-turns-summary ");
                    }
                }
            }
        }
        // Most budgets leave turns out and have room for a line of the summary; the smallest do not.
        assertThat(shown).isBetween(runs / 2, runs - 1);
    }

    @Test
    void withStage2OffNoSummaryIsShown() {
        AtomicInteger loads = new AtomicInteger();

        ConversationContext context = render(STAGE2_OFF, history(40), summary(10, 3), 1_200, Map.of(), loads);

        assertThat(context.summary()).isNull();
        assertThat(loads).hasValue(0);
    }
}
