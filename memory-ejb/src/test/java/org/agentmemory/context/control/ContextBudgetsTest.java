package org.agentmemory.context.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.compaction.control.ModelWindows;
import org.agentmemory.platform.tokens.TokenCounter;
import org.agentmemory.platform.tokens.TokenCounters;
import org.junit.jupiter.api.Test;

class ContextBudgetsTest {

    private static final TokenCounter COUNTER = TokenCounters.defaultCounter();
    private static final ModelWindows WINDOWS = new ModelWindows(Map.of("my-llama", 65536));

    private static ResolvedBudget resolve(ContextRequest request) throws InvalidInputException {
        return ContextBudgets.resolve(request, WINDOWS, COUNTER, 2000);
    }

    @Test
    void modelWindowGivesTheSpecBudgetMinusThePrompts() throws Exception {
        ResolvedBudget budget = resolve(ContextRequest.forModel("GPT-4o-mini").withPromptTokens(1200, 150));
        assertThat(budget.window()).isEqualTo(128000);
        assertThat(budget.windowFallback()).isFalse();
        assertThat(budget.available()).isEqualTo(128000 - 8192 - 4096);
        assertThat(budget.historyBudget()).isEqualTo((int) Math.floor(0.8 * (128000 - 8192 - 4096)) - 1200 - 150);
        assertThat(budget.budget().maxTurns()).isEqualTo(30);
        assertThat(budget.budget().minVerbatimTurns()).isEqualTo(2);
        assertThat(budget.budget().oversizeToolTokens()).isEqualTo(2000);
    }

    @Test
    void configuredPrefixesAndTheFallbackWindow() throws Exception {
        assertThat(resolve(ContextRequest.forModel("my-llama-70b")).window()).isEqualTo(65536);
        ResolvedBudget unknown = resolve(ContextRequest.forModel("mystery-model"));
        assertThat(unknown.window()).isEqualTo(32000);
        assertThat(unknown.windowFallback()).isTrue();
        assertThat(resolve(null).window()).isEqualTo(32000);
    }

    @Test
    void anExplicitWindowWinsOverTheModel() throws Exception {
        ResolvedBudget budget = resolve(
                ContextRequest.forModel("claude-sonnet-4").withReserves(0, 0).withMaxHistoryTokens(null));
        assertThat(budget.window()).isEqualTo(200000);
        ResolvedBudget explicit = resolve(
                new ContextRequest("claude-sonnet-4", 5000, 0, 1000, null, null, null, null, null, null, null, null));
        assertThat(explicit.window()).isEqualTo(5000);
        assertThat(explicit.available()).isEqualTo(4000);
        assertThat(explicit.historyBudget()).isEqualTo(3200);
    }

    @Test
    void promptTextsAreCountedWithTheMemoryCounter() throws Exception {
        String system = "You are a careful assistant. Answer briefly and cite the tool outputs you used.";
        String user = "Why did the last rollout fail?";
        ResolvedBudget budget = resolve(ContextRequest.forWindow(20000).withPrompts(system, user));
        assertThat(budget.systemPromptTokens()).isEqualTo(COUNTER.count(system));
        assertThat(budget.userPromptTokens()).isEqualTo(COUNTER.count(user));
        assertThat(budget.historyBudget())
                .isEqualTo((int) Math.floor(0.8 * (20000 - 12288)) - COUNTER.count(system) - COUNTER.count(user));
    }

    @Test
    void aWindowThatDoesNotExceedTheReservesLeavesNothingAvailableInsteadOfFailing() throws Exception {
        for (int window : new int[] {0, 1, 4000, 12288}) {
            ResolvedBudget budget = resolve(ContextRequest.forWindow(window));
            assertThat(budget.window()).isEqualTo(window);
            assertThat(budget.available()).isZero();
            assertThat(budget.historyBudget()).isZero();
        }
        ResolvedBudget one = resolve(ContextRequest.forWindow(1).withReserves(0, 0));
        assertThat(one.available()).isEqualTo(1);
        assertThat(one.historyBudget()).isZero();
    }

    @Test
    void theCapLowersTheHistoryBudgetAndPromptsLargerThanTheWatermarkGiveZero() throws Exception {
        assertThat(resolve(ContextRequest.forModel("gpt-4o").withMaxHistoryTokens(4000))
                        .historyBudget())
                .isEqualTo(4000);
        assertThat(resolve(ContextRequest.forModel("gpt-4o").withMaxHistoryTokens(0))
                        .historyBudget())
                .isZero();
        assertThat(resolve(ContextRequest.forWindow(20000).withPromptTokens(7000, 7000))
                        .historyBudget())
                .isZero();
    }

    @Test
    void aCeilingBelowTwoLowersTheVerbatimMinimum() throws Exception {
        ResolvedBudget budget = resolve(ContextRequest.forModel("gpt-4o").withMaxTurns(1));
        assertThat(budget.budget().maxTurns()).isEqualTo(1);
        assertThat(budget.budget().minVerbatimTurns()).isEqualTo(1);
    }

    @Test
    void brokenRulesNameTheField() {
        assertField(ContextRequest.forWindow(-1), "window", "min");
        assertField(ContextRequest.forModel("gpt-4o").withReserves(-1, null), "reserveOutput", "min");
        assertField(ContextRequest.forModel("gpt-4o").withReserves(null, -5), "reserveFixed", "min");
        assertField(ContextRequest.forModel("gpt-4o").withMaxHistoryTokens(-1), "maxHistoryTokens", "min");
        assertField(ContextRequest.forModel("gpt-4o").withPromptTokens(-1, 0), "systemPromptTokens", "min");
        assertField(ContextRequest.forModel("gpt-4o").withMaxTurns(0), "maxTurns", "min");
        assertField(
                new ContextRequest(null, null, null, null, null, null, 10, null, "text", null, null, null),
                "systemPrompt",
                "one-of");
        assertField(
                new ContextRequest(null, null, null, null, null, null, null, 3, null, "text", null, null),
                "userPrompt",
                "one-of");
        assertField(ContextRequest.forModel("gpt\n4o"), "model", "control-character");
        assertField(ContextRequest.forModel("x".repeat(257)), "model", "max-length");
        assertField(ContextRequest.forModel("gpt-4o").withCurrentChatbot(" ", true), "currentChatbotId", "not-blank");
    }

    private static void assertField(ContextRequest request, String field, String rule) {
        assertThatThrownBy(() -> resolve(request))
                .isInstanceOf(InvalidInputException.class)
                .satisfies(e -> {
                    assertThat(((InvalidInputException) e).field()).isEqualTo(field);
                    assertThat(((InvalidInputException) e).rule()).isEqualTo(rule);
                });
    }
}
