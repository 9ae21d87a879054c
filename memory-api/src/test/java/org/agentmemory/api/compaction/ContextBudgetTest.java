package org.agentmemory.api.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ContextBudgetTest {

    @Test
    void ofWindowTakesEverySpecDefault() {
        ContextBudget budget = ContextBudget.ofWindow(200_000);

        assertThat(budget.reserveOutput()).isEqualTo(8192);
        assertThat(budget.reserveFixed()).isEqualTo(4096);
        assertThat(budget.highWatermark()).isEqualTo(0.80);
        assertThat(budget.lowWatermark()).isEqualTo(0.60);
        assertThat(budget.maxTurns()).isEqualTo(30);
        assertThat(budget.verbatimTokens()).isEqualTo(15000);
        assertThat(budget.minVerbatimTurns()).isEqualTo(2);
        assertThat(budget.oversizeToolTokens()).isEqualTo(2000);
        assertThat(budget.toolActivityLimit()).isEqualTo(new ContextBudget.ActivityLimit(12, 200, 400, 1500));
    }

    @Test
    void availableSubtractsBothReservesAndWatermarkTruncates() {
        ContextBudget budget = ContextBudget.ofWindow(32000);

        assertThat(budget.available()).isEqualTo(32000 - 8192 - 4096);
        assertThat(budget.watermarkTokens()).isEqualTo((int) Math.floor(0.8 * 19712));
        assertThat(budget.watermarkTokens()).isEqualTo(15769);
    }

    @Test
    void nullActivityLimitMeansDefaults() {
        ContextBudget budget = new ContextBudget(20000, 100, 100, 0.8, 0.6, 30, 15000, 2, 2000, null);

        assertThat(budget.toolActivityLimit()).isSameAs(ContextBudget.ActivityLimit.DEFAULT);
    }

    @Test
    void rejectsWindowNotAboveTheReservesNamingTheValues() {
        assertThatThrownBy(() -> ContextBudget.ofWindow(12288))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("window")
                .hasMessageContaining("8192 + 4096 = 12288")
                .hasMessageContaining("but was 12288");
        assertThat(ContextBudget.ofWindow(12289).available()).isEqualTo(1);
    }

    @Test
    void rejectsEachBrokenInvariantWithTheFieldAndValue() {
        ContextBudget ok = ContextBudget.ofWindow(100_000);

        assertThatThrownBy(() -> ok.withWatermarks(0.0, 0.8)).hasMessageContaining("lowWatermark=0.0");
        assertThatThrownBy(() -> ok.withWatermarks(0.9, 0.8))
                .hasMessageContaining("lowWatermark=0.9, highWatermark=0.8");
        assertThatThrownBy(() -> ok.withWatermarks(0.6, 1.01)).hasMessageContaining("highWatermark=1.01");
        assertThatThrownBy(() -> ok.withWatermarks(Double.NaN, 0.8)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ok.withMinVerbatimTurns(0))
                .hasMessage("ContextBudget.minVerbatimTurns must be >= 1 but was 0");
        assertThatThrownBy(() -> ok.withMaxTurns(1))
                .hasMessage("ContextBudget.maxTurns must be >= minVerbatimTurns (2) but was 1");
        assertThatThrownBy(() -> ok.withVerbatimTokens(-1))
                .hasMessage("ContextBudget.verbatimTokens must be >= 0 but was -1");
        assertThatThrownBy(() -> ok.withOversizeToolTokens(0))
                .hasMessage("ContextBudget.oversizeToolTokens must be >= 1 but was 0");
        assertThatThrownBy(() -> ok.withReserveOutput(-5))
                .hasMessage("ContextBudget.reserveOutput must be >= 0 but was -5");
        assertThatThrownBy(() -> new ContextBudget.ActivityLimit(12, -1, 400, 1500))
                .hasMessage("ContextBudget.ActivityLimit.maxInputChars must be >= 0 but was -1");
    }

    @Test
    void withersReplaceOneFieldAndKeepTheRest() {
        ContextBudget budget = ContextBudget.ofWindow(100_000)
                .withMaxTurns(50)
                .withVerbatimTokens(0)
                .withWatermarks(0.5, 1.0);

        assertThat(budget.maxTurns()).isEqualTo(50);
        assertThat(budget.verbatimTokens()).isZero();
        assertThat(budget.lowWatermark()).isEqualTo(0.5);
        assertThat(budget.highWatermark()).isEqualTo(1.0);
        assertThat(budget.window()).isEqualTo(100_000);
        assertThat(budget.minVerbatimTurns()).isEqualTo(2);
        assertThat(budget.watermarkTokens()).isEqualTo(budget.available());
    }

    @Test
    void historyMessageAcceptsOnlyTheTwoRoles() {
        assertThat(new HistoryMessage("user", "hi", null, "t1").role()).isEqualTo(HistoryMessage.USER);
        assertThatThrownBy(() -> new HistoryMessage("system", "x", null, null))
                .hasMessage("HistoryMessage.role must be \"user\" or \"assistant\" but was \"system\"");
        assertThatThrownBy(() -> new HistoryMessage(null, "x", null, null)).hasMessageContaining("but was null");
    }

    @Test
    void viewsAreRawOrPrunedOnlyAndNullTextsBecomeEmpty() {
        TurnView view = new TurnView("t1", null, null, "answer", null, TurnState.PRUNED, 7);

        assertThat(view.userText()).isEmpty();
        assertThat(view.assistantSuffix()).isEmpty();
        assertThat(view.tier()).isEqualTo(new TurnTier("t1", null, TurnState.PRUNED, 7));
        assertThatThrownBy(() -> new TurnView("t1", null, "", "a", "", TurnState.SUMMARIZED, 1))
                .hasMessage("a view's state must be RAW or PRUNED but was SUMMARIZED");
    }
}
