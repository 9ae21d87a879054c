package org.agentmemory.context.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.TurnTier;
import org.agentmemory.api.context.ContextOutcome;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.control.CompactionOptions;
import org.agentmemory.compaction.control.Compactor;
import org.agentmemory.compaction.control.ContextWindowFitter;
import org.agentmemory.compaction.control.FittedHistory;
import org.agentmemory.compaction.control.ModelWindows;
import org.agentmemory.compaction.control.PrunePolicies;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.junit.jupiter.api.Test;

class ContextResultsTest {

    private static final TokenCounter COUNTER = TokenCounters.defaultCounter();
    private static final ContextWindowFitter FITTER =
            new ContextWindowFitter(new Compactor(COUNTER, PrunePolicies.builtIn()));

    private static ResolvedBudget budget(ContextRequest request) throws Exception {
        return ContextBudgets.resolve(request, ModelWindows.builtIn(), COUNTER, 2000);
    }

    private static List<TurnRecord> history(int turns) {
        List<TurnRecord> history = new ArrayList<>();
        for (int i = 1; i <= turns; i++) {
            history.add(TurnRecord.of(
                            "t" + i,
                            "question number " + i + " about the deployment",
                            "answer number " + i + " with some detail about what happened and why")
                    .withToolInvocations(List.of(ToolInvocationRecord.of(
                            "bash", Map.of("command", "kubectl logs " + i), "line ".repeat(300) + i))));
        }
        return history;
    }

    @Test
    void theCommitCarriesThePromptEstimateBoundaryFlagAndTelemetry() throws Exception {
        ResolvedBudget budget = budget(
                ContextRequest.forModel("gpt-4o").withPromptTokens(1200, 150).withMaxHistoryTokens(700));
        FittedHistory fitted = FITTER.fitWithin(
                history(12),
                budget.budget(),
                budget.historyBudget(),
                CompactionOptions.defaults().withCalibration(1.25));
        ConversationContext context = ContextResults.fitted(42L, fitted, null, budget, 1.25, COUNTER.name());

        long estimate =
                fitted.views().stream().mapToLong(v -> v.estimatedTokens()).sum();
        assertThat(context.conversationId()).isEqualTo(42L);
        assertThat(context.messages()).isEqualTo(fitted.messages());
        assertThat(context.tiers())
                .extracting(TurnTier::turnId)
                .containsExactlyElementsOf(
                        fitted.views().stream().map(v -> v.turnId()).toList());
        assertThat(context.historyEstimate()).isEqualTo(estimate);
        assertThat(context.tokensUsed()).isEqualTo(fitted.tokensUsed()).isLessThanOrEqualTo(700);
        assertThat(context.withinBudget()).isTrue();
        assertThat(context.historyBudget()).isEqualTo(700);
        assertThat(context.available()).isEqualTo(128000 - 12288);
        assertThat(context.calibration()).isEqualTo(1.25);
        assertThat(context.tokenizer()).isEqualTo("o200k_base");
        assertThat(context.commit())
                .isEqualTo(new CompactionCommit(
                        fitted.tokensUsed() + 1200L + 150L,
                        fitted.boundaryTurnId(),
                        fitted.stage2Needed(),
                        estimate,
                        fitted.droppedTurnIds().size(),
                        128000 - 12288));
        assertThat(context.droppedTurnIds()).isNotEmpty();
        assertThat(context.note())
                .contains(context.droppedTurnIds().size() + " older turn(s)")
                .contains("700 tokens");
    }

    @Test
    void anEmptyHistoryIsNothingToRenderAndItsCommitOnlyCalibrates() throws Exception {
        ResolvedBudget budget = budget(ContextRequest.forModel("gpt-4o").withPromptTokens(30, 5));
        FittedHistory fitted =
                FITTER.fitWithin(List.of(), budget.budget(), budget.historyBudget(), CompactionOptions.defaults());
        ConversationContext context = ContextResults.fitted(null, fitted, null, budget, 1.0, COUNTER.name());
        assertThat(context.outcome()).isEqualTo(ContextOutcome.NOTHING_TO_RENDER);
        assertThat(context.messages()).isEmpty();
        assertThat(context.note()).isEqualTo("No conversation exists for this key yet; the history is empty.");
        assertThat(context.commit()).isEqualTo(new CompactionCommit(35, null, false, 0, 0, 128000 - 12288));
    }

    @Test
    void aBudgetTooSmallSaysSoAndWhatToChange() throws Exception {
        ResolvedBudget budget = budget(ContextRequest.forModel("gpt-4o").withMaxHistoryTokens(1));
        FittedHistory fitted =
                FITTER.fitWithin(history(3), budget.budget(), budget.historyBudget(), CompactionOptions.defaults());
        ConversationContext context = ContextResults.fitted(7L, fitted, null, budget, 1.0, COUNTER.name());
        assertThat(context.outcome()).isEqualTo(ContextOutcome.BUDGET_TOO_SMALL);
        assertThat(context.budgetTooSmall()).isTrue();
        assertThat(context.messages()).isEmpty();
        assertThat(context.tokensUsed()).isZero();
        assertThat(context.stage2Needed()).isTrue();
        assertThat(context.note())
                .startsWith("No message fits the history budget of 1 tokens")
                .contains("maxHistoryTokens");
    }

    @Test
    void thePlainPathHasNoCommitAndFlagsAnOverBudgetHistory() throws Exception {
        ResolvedBudget budget = budget(ContextRequest.forModel("gpt-4o").withMaxHistoryTokens(5));
        List<HistoryMessage> messages = List.of(
                new HistoryMessage("user", "hello there", null, "t1"),
                new HistoryMessage("assistant", "general kenobi, you are a bold one", null, "t1"));
        ConversationContext context = ContextResults.uncompacted(
                9L, messages, 12, budget, "t0", 1.1, COUNTER.name(), "Compaction is disabled.");
        assertThat(context.outcome()).isEqualTo(ContextOutcome.UNCOMPACTED);
        assertThat(context.commit()).isNull();
        assertThat(context.withinBudget()).isFalse();
        assertThat(context.boundaryTurnId()).isEqualTo("t0");
        assertThat(context.note())
                .isEqualTo(
                        "Compaction is disabled. The 12 tokens of the messages EXCEED the history budget of 5 tokens.");
    }
}
