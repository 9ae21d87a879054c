package org.agentmemory.compaction.control;

import static org.agentmemory.api.compaction.TurnState.PRUNED;
import static org.agentmemory.api.compaction.TurnState.RAW;
import static org.agentmemory.compaction.control.Turns.sized;
import static org.agentmemory.compaction.control.Turns.sizedHistory;
import static org.agentmemory.compaction.control.Turns.tool;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.compaction.ContextBudget;
import org.agentmemory.api.compaction.TurnState;
import org.agentmemory.api.compaction.TurnTier;
import org.agentmemory.api.compaction.TurnView;
import org.agentmemory.api.conversation.TokenCount;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.omission.control.ContentIds;
import org.junit.jupiter.api.Test;

/** Golden walks on hand-built histories; sizes come from stored counts (tokenizer "words"). */
class CompactorTest {

    private static final Compactor COMPACTOR = new Compactor(WordCounter.INSTANCE, PrunePolicies.builtIn());

    /** available = 22288 − 8192 − 4096 = 10000; watermark = 8000. */
    private static ContextBudget budget(int maxTurns, int verbatimTokens) {
        return new ContextBudget(22288, 8192, 4096, 0.8, 0.6, maxTurns, verbatimTokens, 2, 2000, null);
    }

    private static CompactionResult compact(List<TurnRecord> turns, ContextBudget budget, CompactionOptions options) {
        return COMPACTOR.compact(turns, budget, options);
    }

    private static List<String> states(CompactionResult result) {
        return result.views().stream()
                .map(view -> view.turnId() + ":" + view.state())
                .toList();
    }

    @Test
    void keepsMinVerbatimThenRawWithinVerbatimThenPrunedWithinWatermark() {
        CompactionResult result = compact(sizedHistory(6, 1000), budget(30, 3000), CompactionOptions.defaults());

        assertThat(states(result)).containsExactly("t1:PRUNED", "t2:PRUNED", "t3:PRUNED", "t4:RAW", "t5:RAW", "t6:RAW");
        assertThat(result.tiers()).extracting(TurnTier::estimatedTokens).containsOnly(1000);
        assertThat(result.historyEstimate()).isEqualTo(6000);
        assertThat(result.boundaryTurnId()).isEqualTo("t3");
        assertThat(result.stage2Needed()).isFalse();
        assertThat(result.droppedTurnIds()).isEmpty();
        assertThat(result.omissions()).isEmpty();
    }

    @Test
    void dropsTheTurnThatOverflowsTheWatermarkAndEveryOlderOne() {
        CompactionResult result = compact(sizedHistory(12, 1000), budget(30, 3000), CompactionOptions.defaults());

        assertThat(states(result))
                .containsExactly(
                        "t5:PRUNED",
                        "t6:PRUNED",
                        "t7:PRUNED",
                        "t8:PRUNED",
                        "t9:PRUNED",
                        "t10:RAW",
                        "t11:RAW",
                        "t12:RAW");
        assertThat(result.historyEstimate()).isEqualTo(8000);
        assertThat(result.droppedTurnIds()).containsExactly("t1", "t2", "t3", "t4");
        assertThat(result.stage2Needed()).isTrue();
        assertThat(result.boundaryTurnId()).isEqualTo("t9");
    }

    @Test
    void ceilingDropsComeFirstAndAloneDoNotNeedStage2() {
        CompactionResult result = compact(sizedHistory(12, 1000), budget(5, 3000), CompactionOptions.defaults());

        assertThat(states(result)).containsExactly("t8:PRUNED", "t9:PRUNED", "t10:RAW", "t11:RAW", "t12:RAW");
        assertThat(result.droppedTurnIds()).containsExactly("t1", "t2", "t3", "t4", "t5", "t6", "t7");
        assertThat(result.stage2Needed()).isFalse();
    }

    @Test
    void ceilingDropsPrecedeWalkDrops() {
        CompactionResult result = compact(sizedHistory(12, 1000), budget(10, 3000), CompactionOptions.defaults());

        assertThat(result.droppedTurnIds()).containsExactly("t1", "t2", "t3", "t4");
        assertThat(result.views()).first().extracting(TurnView::turnId).isEqualTo("t5");
    }

    @Test
    void calibrationMultipliesAndRoundsUp() {
        List<TurnRecord> turns = List.of(sized("a", 133, 200), sized("b", 133, 200));

        CompactionResult result =
                compact(turns, budget(30, 3000), CompactionOptions.defaults().withCalibration(1.5));

        assertThat(result.tiers()).extracting(TurnTier::estimatedTokens).containsExactly(500, 500);
        assertThat(result.historyEstimate()).isEqualTo(1000);
    }

    @Test
    void minVerbatimTurnsStayRawWhateverTheirSizeAndTheEstimateCanExceedAvailable() {
        List<TurnRecord> turns = List.of(sized("old", 10, 10), sized("big", 10_000, 10_000), sized("new", 1, 1));

        CompactionResult result = compact(turns, budget(30, 3000), CompactionOptions.defaults());

        assertThat(states(result)).containsExactly("big:RAW", "new:RAW");
        assertThat(result.droppedTurnIds()).containsExactly("old");
        assertThat(result.historyEstimate()).isEqualTo(20_002);
        assertThat(result.stage2Needed()).isTrue();
    }

    @Test
    void stage2IsNeededWhenTheEstimateExceedsAvailableWithoutAnyDrop() {
        CompactionResult result = compact(
                List.of(sized("a", 5000, 5000), sized("b", 1, 1)), budget(30, 3000), CompactionOptions.defaults());

        assertThat(result.droppedTurnIds()).isEmpty();
        assertThat(result.historyEstimate()).isEqualTo(10_002);
        assertThat(result.stage2Needed()).isTrue();
    }

    @Test
    void theBoundaryForcesItselfAndOlderTurnsPruned() {
        CompactionResult result = compact(
                sizedHistory(6, 1000),
                budget(30, 15000),
                CompactionOptions.defaults().withBoundaryTurnId("t5"));

        assertThat(states(result))
                .containsExactly("t1:PRUNED", "t2:PRUNED", "t3:PRUNED", "t4:PRUNED", "t5:PRUNED", "t6:RAW");
        assertThat(result.boundaryTurnId()).isEqualTo("t5");
    }

    @Test
    void withNoRawTurnNothingIsDroppedWhateverTheSize() {
        CompactionResult result = compact(
                sizedHistory(3, 5000),
                budget(30, 15000),
                CompactionOptions.defaults().withBoundaryTurnId("t3"));

        assertThat(states(result)).containsExactly("t1:PRUNED", "t2:PRUNED", "t3:PRUNED");
        assertThat(result.historyEstimate()).isEqualTo(15000);
        assertThat(result.droppedTurnIds()).isEmpty();
        assertThat(result.stage2Needed()).isTrue();
    }

    @Test
    void anUnchangedInputBoundaryIsReturnedWhenNoViewIsPruned() {
        CompactionResult result = compact(
                sizedHistory(2, 10),
                budget(30, 15000),
                CompactionOptions.defaults().withBoundaryTurnId("gone"));

        assertThat(states(result)).containsExactly("t1:RAW", "t2:RAW");
        assertThat(result.boundaryTurnId()).isEqualTo("gone");
    }

    @Test
    void anOversizeOutputPrunesAnOlderTurnButNotTheNewest() {
        String big = Turns.words(2001);
        TurnRecord older = Turns.turn("old", "q", "a", tool("t", Map.of(), big));
        TurnRecord newest = Turns.turn("new", "q", "a", tool("t", Map.of(), big));

        CompactionResult result = compact(List.of(older, newest), budget(30, 15000), CompactionOptions.defaults());

        assertThat(states(result)).containsExactly("old:PRUNED", "new:RAW");
        assertThat(result.views().get(1).assistantSuffix())
                .contains("out=w0 w1")
                .contains(" chars)");
        assertThat(result.views().get(0).assistantSuffix()).contains("id=\"" + ContentIds.contentId(big) + "\"");
        assertThat(result.omissions()).extracting(PendingOmission::turnId).containsExactly("old");
        assertThat(result.boundaryTurnId()).isEqualTo("old");
    }

    @Test
    void anOutputOfExactlyTheOversizeThresholdStaysRaw() {
        TurnRecord older = Turns.turn("old", "q", "a", tool("t", Map.of(), Turns.words(2000)));

        CompactionResult result =
                compact(List.of(older, Turns.turn("new", "q", "a")), budget(30, 15000), CompactionOptions.defaults());

        assertThat(states(result)).containsExactly("old:RAW", "new:RAW");
    }

    @Test
    void anOffloadedOutputMakesAnOlderTurnPrunedButTheNewestStaysRawWithItsNotice() {
        TurnRecord older =
                Turns.turn("old", "q", "a", Turns.offloaded("t", Map.of(), "p", 9000, "om_1111111111111111", null));
        TurnRecord newest =
                Turns.turn("new", "q", "a", Turns.offloaded("t", Map.of(), "p", 9000, "om_2222222222222222", null));

        CompactionResult result = compact(List.of(older, newest), budget(30, 15000), CompactionOptions.defaults());

        assertThat(states(result)).containsExactly("old:PRUNED", "new:RAW");
        assertThat(result.views().get(1).assistantSuffix())
                .contains("id=\"om_2222222222222222\"")
                .doesNotContain("read_omitted_content");
        assertThat(result.omissions()).isEmpty();
    }

    @Test
    void sizesCountTheRenderedSuffixNotTheStoredToolsCount() {
        TurnRecord turn = Turns.turn("a", "q", "a", tool("t", Map.of(), "x y z"))
                .withTokenCount(new TokenCount(3, 4, 999, 1006, "words"));

        CompactionResult result = compact(List.of(turn), budget(30, 15000), CompactionOptions.defaults());

        // "<tool-activity>", "-", "t", "ok", "in={}", "out=x", "y", "z", "</tool-activity>" = 9 words.
        assertThat(result.views().get(0).estimatedTokens()).isEqualTo(3 + 4 + 9);
    }

    @Test
    void aStoredCountOfAnotherTokenizerIsRecounted() {
        TurnRecord turn = TurnRecord.of("a", "one two", "three four five")
                .withTokenCount(new TokenCount(500, 500, 0, 1000, "o200k_base"));

        CompactionResult result = compact(List.of(turn), budget(30, 15000), CompactionOptions.defaults());

        assertThat(result.views().get(0).estimatedTokens()).isEqualTo(5);
    }

    @Test
    void blankAssistantResponsesAreNotCandidatesAndNotDropped() {
        List<TurnRecord> turns = new ArrayList<>(sizedHistory(2, 10));
        turns.add(1, TurnRecord.of("blank", "q", " \u00a0\n"));
        turns.add(TurnRecord.of("null", "q", null));

        CompactionResult result = compact(turns, budget(30, 15000), CompactionOptions.defaults());

        assertThat(result.views()).extracting(TurnView::turnId).containsExactly("t1", "t2");
        assertThat(result.droppedTurnIds()).isEmpty();
    }

    @Test
    void foreignTurnsAreKeptOrExcludedWithoutCountingAsDropped() {
        List<TurnRecord> turns = List.of(
                sized("mine", 1, 1).withChatbotId("me"),
                sized("theirs", 1, 1).withChatbotId("other"),
                sized("legacy", 1, 1));

        CompactionResult included =
                compact(turns, budget(30, 15000), CompactionOptions.defaults().withCurrentChatbot("me", true));
        CompactionResult excluded =
                compact(turns, budget(30, 15000), CompactionOptions.defaults().withCurrentChatbot("me", false));

        assertThat(included.views()).extracting(TurnView::turnId).containsExactly("mine", "theirs", "legacy");
        assertThat(excluded.views()).extracting(TurnView::turnId).containsExactly("mine", "legacy");
        assertThat(excluded.droppedTurnIds()).isEmpty();
    }

    @Test
    void omissionsAreDeduplicatedByContentIdKeepingTheNewestTurnsFirst() {
        TurnRecord a = Turns.turn("a", "q", "a", tool("t", Map.of(), "same"), tool("t", Map.of(), "only-a"));
        TurnRecord b = Turns.turn("b", "q", "a", tool("t", Map.of(), "same"));

        CompactionResult result = compact(
                List.of(a, b, sized("c", 1, 1)),
                budget(30, 15000),
                CompactionOptions.defaults().withBoundaryTurnId("b"));

        assertThat(result.omissions())
                .extracting(PendingOmission::content, PendingOmission::turnId)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("same", "b"),
                        org.assertj.core.groups.Tuple.tuple("only-a", "a"));
    }

    @Test
    void compactingAgainWithThePersistedBoundaryChangesNothing() {
        List<TurnRecord> turns = sizedHistory(14, 1000);
        CompactionResult first = compact(turns, budget(12, 3000), CompactionOptions.defaults());

        CompactionResult second = compact(
                turns, budget(12, 3000), CompactionOptions.defaults().withBoundaryTurnId(first.boundaryTurnId()));

        assertThat(second).isEqualTo(first);
    }

    // Fix of spec §13 #15: the boundary is located in stored order.

    @Test
    void aBoundaryThatIsNoLongerACandidateStillForcesOlderKeptTurns() {
        List<TurnRecord> turns = List.of(
                sized("t1", 1, 1).withChatbotId("me"),
                sized("t2", 1, 1).withChatbotId("me"),
                sized("t3", 1, 1).withChatbotId("other"),
                sized("t4", 1, 1).withChatbotId("me"),
                sized("t5", 1, 1).withChatbotId("me"));

        CompactionResult result = compact(
                turns,
                budget(30, 15000),
                CompactionOptions.defaults().withCurrentChatbot("me", false).withBoundaryTurnId("t3"));

        assertThat(states(result)).containsExactly("t1:PRUNED", "t2:PRUNED", "t4:RAW", "t5:RAW");
        assertThat(result.boundaryTurnId()).isEqualTo("t2");
    }

    @Test
    void aBoundaryBeyondTheCeilingForcesNoKeptTurnBecauseAllAreNewer() {
        CompactionResult result = compact(
                sizedHistory(6, 10),
                budget(3, 15000),
                CompactionOptions.defaults().withBoundaryTurnId("t2"));

        assertThat(states(result)).containsExactly("t4:RAW", "t5:RAW", "t6:RAW");
        assertThat(result.droppedTurnIds()).containsExactly("t1", "t2", "t3");
        assertThat(result.boundaryTurnId()).isEqualTo("t2");
    }

    @Test
    void anUnknownBoundaryForcesNothing() {
        CompactionResult result = compact(
                sizedHistory(3, 10),
                budget(30, 15000),
                CompactionOptions.defaults().withBoundaryTurnId("erased"));

        assertThat(result.views()).extracting(TurnView::state).containsOnly(TurnState.RAW);
    }

    @Test
    void tiersAreContiguousAndNewerTurnsAreNeverDroppedBeforeOlderOnesAsTheHistoryGrows() {
        List<TurnRecord> history = new ArrayList<>();
        String boundary = null;
        java.util.Set<String> everPruned = new java.util.HashSet<>();
        for (int i = 1; i <= 60; i++) {
            history.add(sized("t" + i, 100 + (i * 37) % 400, 200 + (i * 53) % 900));
            CompactionResult result = compact(
                    history, budget(25, 3000), CompactionOptions.defaults().withBoundaryTurnId(boundary));
            boundary = result.boundaryTurnId();

            List<TurnState> tiers = result.views().stream().map(TurnView::state).toList();
            int firstRaw = tiers.indexOf(RAW);
            assertThat(tiers.subList(0, firstRaw < 0 ? tiers.size() : firstRaw)).doesNotContain(RAW);
            assertThat(tiers.subList(firstRaw < 0 ? tiers.size() : firstRaw, tiers.size()))
                    .doesNotContain(PRUNED);
            int oldestShown = Integer.parseInt(result.views().get(0).turnId().substring(1));
            assertThat(result.droppedTurnIds())
                    .allSatisfy(
                            id -> assertThat(Integer.parseInt(id.substring(1))).isLessThan(oldestShown));
            assertThat(result.views().get(result.views().size() - 1).turnId()).isEqualTo("t" + i);
            for (TurnView view : result.views()) {
                if (everPruned.contains(view.turnId())) {
                    assertThat(view.state())
                            .as("turn %s was PRUNED before", view.turnId())
                            .isEqualTo(PRUNED);
                }
                if (view.state() == PRUNED) {
                    everPruned.add(view.turnId());
                }
            }
        }
        assertThat(everPruned).isNotEmpty();
    }

    @Test
    void theInputIsNotMutated() {
        List<TurnRecord> turns = new ArrayList<>(List.of(
                Turns.turn("a", "q", "a", tool("t", Map.of("k", "v"), "out")), sized("b", 1, 1)));
        List<TurnRecord> copy = List.copyOf(turns);

        compact(turns, budget(30, 15000), CompactionOptions.defaults().withBoundaryTurnId("a"));

        assertThat(turns).isEqualTo(copy);
    }
}
