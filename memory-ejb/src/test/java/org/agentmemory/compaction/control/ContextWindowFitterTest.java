package org.agentmemory.compaction.control;

import static org.agentmemory.compaction.control.Turns.tool;
import static org.agentmemory.compaction.control.Turns.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.omission.control.ContentIds;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.junit.jupiter.api.Test;

class ContextWindowFitterTest {

    private static final TokenCounter COUNTER = TokenCounters.defaultCounter();
    private static final Compactor COMPACTOR = new Compactor(COUNTER, PrunePolicies.builtIn());
    private static final ContextWindowFitter FITTER = new ContextWindowFitter(COMPACTOR);
    private static final ContextBudget BUDGET = ContextBudget.ofWindow(200_000);

    private static int tokens(List<HistoryMessage> messages) {
        return messages.stream()
                .mapToInt(message -> COUNTER.count(message.content()))
                .sum();
    }

    private static List<TurnRecord> smallHistory(int count) {
        List<TurnRecord> turns = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            turns.add(turn(
                    "t" + i,
                    "Question number " + i + " about Jakarta EE?",
                    "Answer number " + i + " with some detail."));
        }
        return turns;
    }

    @Test
    void historyBudgetIsTheWatermarkMinusBothPromptsAndNeverNegative() {
        ContextBudget budget = ContextBudget.ofWindow(32000);

        assertThat(ContextWindowFitter.historyBudget(budget, 1000, 500)).isEqualTo(15769 - 1500);
        assertThat(ContextWindowFitter.historyBudget(budget, 15000, 769)).isZero();
        assertThat(ContextWindowFitter.historyBudget(budget, Integer.MAX_VALUE, Integer.MAX_VALUE))
                .isZero();
        assertThatThrownBy(() -> ContextWindowFitter.historyBudget(budget, -1, 0))
                .hasMessage("prompt sizes must be >= 0 tokens but were systemPromptTokens=-1, userPromptTokens=0");
    }

    @Test
    void truncationMarkerAndMiddleCutAreExact() {
        assertThat(ContextWindowFitter.truncationMarker(59_000)).isEqualTo("\n\u2026[truncated 59,000 chars]\u2026\n");
        String text = "0123456789".repeat(10);

        assertThat(ContextWindowFitter.truncateMiddle(text, 11))
                .isEqualTo("012345\n\u2026[truncated 89 chars]\u2026\n56789");
        assertThat(ContextWindowFitter.truncateMiddle("short", 0)).isEqualTo("short");
        assertThat(ContextWindowFitter.truncateMiddle(null, 0)).isEmpty();
        assertThat(ContextWindowFitter.truncateMiddle("\uD83D\uDE00".repeat(100), 3))
                .isEqualTo("\uD83D\uDE00\uD83D\uDE00\n\u2026[truncated 97 chars]\u2026\n\uD83D\uDE00");
    }

    @Test
    void aHistoryThatFitsIsTheRenderedCompaction() {
        List<TurnRecord> turns = smallHistory(5);

        FittedHistory fitted = FITTER.fit(turns, BUDGET, 500, 100, CompactionOptions.defaults());

        CompactionResult compaction = COMPACTOR.compact(turns, BUDGET, CompactionOptions.defaults());
        assertThat(fitted.outcome()).isEqualTo(FittedHistory.Outcome.FITTED);
        assertThat(fitted.messages()).isEqualTo(HistoryRenderer.renderViews(compaction.views(), null, true));
        assertThat(fitted.tokensUsed()).isEqualTo(tokens(fitted.messages()));
        assertThat(fitted.historyBudget()).isEqualTo(BUDGET.watermarkTokens() - 600);
        assertThat(fitted.reduced()).isFalse();
        assertThat(fitted.stage2Needed()).isFalse();
    }

    @Test
    void aSixtyThousandCharacterNewestTurnIsReducedIntoAFourThousandTokenBudget() {
        List<TurnRecord> turns = new ArrayList<>(smallHistory(3));
        String huge = "The quick brown fox jumps over the lazy dog near the river bank. "
                .repeat(924)
                .substring(0, 60_000);
        turns.add(turn("big", huge, "Short answer."));

        FittedHistory fitted = FITTER.fitWithin(turns, BUDGET, 4000, CompactionOptions.defaults());

        assertThat(fitted.outcome()).isEqualTo(FittedHistory.Outcome.REDUCED);
        assertThat(fitted.reduced()).isTrue();
        assertThat(fitted.tokensUsed())
                .isEqualTo(tokens(fitted.messages()))
                .isLessThanOrEqualTo(4000)
                .isGreaterThan(3000);
        assertThat(fitted.messages()).extracting(HistoryMessage::role).containsExactly("user", "assistant");
        assertThat(fitted.messages().get(0).content())
                .startsWith("The quick brown fox")
                .contains("\n\u2026[truncated ")
                .endsWith(huge.substring(huge.length() - 20));
        assertThat(fitted.messages().get(1).content()).isEqualTo("Short answer.");
        assertThat(fitted.droppedTurnIds()).containsExactly("t1", "t2", "t3");
        assertThat(fitted.boundaryTurnId()).isEqualTo("big");
        assertThat(fitted.stage2Needed()).isTrue();
        FittedHistory again = FITTER.fitWithin(
                turns, BUDGET, 4000, CompactionOptions.defaults().withBoundaryTurnId("big"));
        assertThat(again.messages()).isEqualTo(fitted.messages());
        assertThat(again.boundaryTurnId()).isEqualTo("big");
    }

    @Test
    void budgetsOfZeroOneAndTwoTokensGiveNoMessagesAndSaySo() {
        List<TurnRecord> turns = smallHistory(3);
        for (int budget : new int[] {0, 1, 2, -5}) {
            FittedHistory fitted = FITTER.fitWithin(turns, BUDGET, budget, CompactionOptions.defaults());

            assertThat(fitted.outcome()).isEqualTo(FittedHistory.Outcome.BUDGET_TOO_SMALL);
            assertThat(fitted.budgetTooSmall()).isTrue();
            assertThat(fitted.messages()).isEmpty();
            assertThat(fitted.tokensUsed()).isZero();
            assertThat(fitted.historyBudget()).isEqualTo(Math.max(0, budget));
            assertThat(fitted.droppedTurnIds()).containsExactly("t1", "t2", "t3");
        }
    }

    @Test
    void anEmptyOrAllBlankHistoryHasNothingToRender() {
        FittedHistory empty = FITTER.fitWithin(List.of(), BUDGET, 1000, CompactionOptions.defaults());
        FittedHistory blank = FITTER.fitWithin(
                List.of(TurnRecord.of("a", "q", " "), TurnRecord.of("b", "q", null)),
                BUDGET,
                1,
                CompactionOptions.defaults());

        assertThat(empty.outcome()).isEqualTo(FittedHistory.Outcome.NOTHING_TO_RENDER);
        assertThat(empty.messages()).isEmpty();
        assertThat(empty.tokensUsed()).isZero();
        assertThat(blank.outcome()).isEqualTo(FittedHistory.Outcome.NOTHING_TO_RENDER);
        assertThat(blank.messages()).isEmpty();
    }

    @Test
    void tenParallelInvocationsShowAllTheirOutputsOrNoneNeverASubset() {
        List<ToolInvocationRecord> invocations = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            invocations.add(tool(
                    "fetch_page",
                    Map.of("url", "https://example.org/" + i),
                    ("result " + i + " alpha beta gamma delta epsilon ").repeat(8)));
        }
        List<TurnRecord> turns = List.of(
                turn("old", "earlier", "fine"),
                turn("par", "Fetch ten pages at once", "Here is what the pages say.")
                        .withToolInvocations(invocations));
        FittedHistory roomy = FITTER.fitWithin(turns, BUDGET, 100_000, CompactionOptions.defaults());
        List<TurnRecord> newestOnly = turns.subList(1, 2);
        int withOutputs = FITTER.fitWithin(newestOnly, BUDGET, 100_000, CompactionOptions.defaults())
                .tokensUsed();
        String withoutOutputsText = ToolActivitySuffix.pruned(
                        turns.get(1), BUDGET.toolActivityLimit(), PrunePolicies.builtIn(), null)
                .text();
        int withoutOutputs = COUNTER.count("Fetch ten pages at once")
                + COUNTER.count("Here is what the pages say." + withoutOutputsText);
        int aboutSixOutputs = withoutOutputs + (withOutputs - withoutOutputs) * 6 / 10;

        FittedHistory tight = FITTER.fitWithin(turns, BUDGET, aboutSixOutputs, CompactionOptions.defaults());

        assertThat(withoutOutputs).isLessThan(aboutSixOutputs);
        assertThat(aboutSixOutputs).isLessThan(withOutputs);
        assertThat(rawOutputsShown(roomy, invocations)).isEqualTo(10);
        assertThat(rawOutputsShown(tight, invocations)).isZero();
        assertThat(tight.tokensUsed()).isLessThanOrEqualTo(aboutSixOutputs);
        String last = tight.messages().get(tight.messages().size() - 1).content();
        for (ToolInvocationRecord invocation : invocations) {
            assertThat(last).contains("id=\"" + ContentIds.contentId(invocation.output()) + "\"");
        }
        assertThat(tight.omissions()).hasSize(10);
    }

    private static long rawOutputsShown(FittedHistory fitted, List<ToolInvocationRecord> invocations) {
        String all = String.join(
                "\n", fitted.messages().stream().map(HistoryMessage::content).toList());
        return invocations.stream()
                .filter(invocation -> all.contains("out=" + invocation.output()))
                .count();
    }

    @Test
    void relaxesMinVerbatimAndTrimsOldViewsBeforeReducing() {
        List<TurnRecord> turns = new ArrayList<>(smallHistory(4));
        turns.add(turn("bulky", "Please summarize", "word ".repeat(3000)));
        turns.add(turn("last", "thanks", "You are welcome."));

        FittedHistory fitted = FITTER.fitWithin(turns, BUDGET, 400, CompactionOptions.defaults());

        assertThat(fitted.outcome()).isEqualTo(FittedHistory.Outcome.TRIMMED);
        assertThat(fitted.tokensUsed()).isLessThanOrEqualTo(400);
        assertThat(fitted.views())
                .extracting(view -> view.turnId())
                .endsWith("last")
                .doesNotContain("bulky");
        assertThat(fitted.droppedTurnIds()).contains("bulky");
        assertThat(fitted.boundaryTurnId()).isNull();
        assertThat(fitted.stage2Needed()).isTrue();
        assertThat(FITTER.fitWithin(
                        turns, BUDGET, 400, CompactionOptions.defaults().withBoundaryTurnId(fitted.boundaryTurnId())))
                .isEqualTo(fitted);
    }

    @Test
    void calibrationAboveOneShrinksWhatFits() {
        List<TurnRecord> turns = smallHistory(20);
        FittedHistory plain = FITTER.fitWithin(turns, BUDGET, 300, CompactionOptions.defaults());
        FittedHistory calibrated = FITTER.fitWithin(
                turns, BUDGET, 300, CompactionOptions.defaults().withCalibration(2.0));

        assertThat(Math.ceil(2.0 * calibrated.tokensUsed())).isLessThanOrEqualTo(300);
        assertThat(calibrated.messages().size()).isLessThan(plain.messages().size());
        assertThat(plain.tokensUsed()).isLessThanOrEqualTo(300);
    }

    @Test
    void fittingAgainWithThePersistedBoundaryChangesNothing() {
        List<TurnRecord> turns = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            turns.add(turn(
                    "t" + i,
                    "Question " + i,
                    ("Answer " + i + " ").repeat(1 + i % 7),
                    tool("search", Map.of("query", "q" + i), ("hit " + i + " ").repeat(30))));
        }
        ContextBudget tiered = BUDGET.withVerbatimTokens(500);
        List<FittedHistory.Outcome> outcomes = new ArrayList<>();
        List<TurnState> states = new ArrayList<>();
        for (int budget : new int[] {300, 1200, 5000, 100_000}) {
            FittedHistory first = FITTER.fitWithin(turns, tiered, budget, CompactionOptions.defaults());
            FittedHistory second = FITTER.fitWithin(
                    turns, tiered, budget, CompactionOptions.defaults().withBoundaryTurnId(first.boundaryTurnId()));

            assertThat(second.messages()).as("budget %d", budget).isEqualTo(first.messages());
            assertThat(second.boundaryTurnId()).isEqualTo(first.boundaryTurnId());
            outcomes.add(first.outcome());
            first.views().forEach(view -> states.add(view.state()));
        }
        assertThat(outcomes).containsOnly(FittedHistory.Outcome.FITTED);
        assertThat(states).contains(TurnState.PRUNED, TurnState.RAW);
    }

    @Test
    void whenEvenCutTextsDoNotFitWithEveryToolLineTheLastLinesBecomeACount() {
        List<ToolInvocationRecord> invocations = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            invocations.add(Turns.failed("step" + i, Map.of(), ("stack frame " + i + " failed badly; ").repeat(60)));
        }
        List<TurnRecord> turns = List.of(
                turn("errs", "Run the eight steps", "Most steps failed.").withToolInvocations(invocations));

        FittedHistory fitted = FITTER.fitWithin(turns, BUDGET, 1200, CompactionOptions.defaults());

        assertThat(fitted.outcome()).isEqualTo(FittedHistory.Outcome.REDUCED);
        assertThat(fitted.tokensUsed()).isLessThanOrEqualTo(1200);
        String assistant = fitted.messages().get(1).content();
        long shown = invocations.stream()
                .filter(invocation -> assistant.contains("- " + invocation.toolName() + " error"))
                .count();
        assertThat(shown).isBetween(1L, 7L);
        assertThat(assistant)
                .startsWith("Most steps failed.\n\n<tool-activity>\n- step0 error in={} error=stack frame 0")
                .endsWith("\n\u2026 +" + (8 - shown) + " more\n</tool-activity>");
        assertThat(fitted.messages().get(0).content()).isEqualTo("Run the eight steps");
    }

    @Test
    void rejectsACalibrationThatIsNotAPositiveFiniteNumber() {
        assertThatThrownBy(() -> CompactionOptions.defaults().withCalibration(0.0))
                .hasMessage("CompactionOptions.calibration must be a finite number > 0 but was 0.0");
        assertThatThrownBy(() -> CompactionOptions.defaults().withCalibration(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
