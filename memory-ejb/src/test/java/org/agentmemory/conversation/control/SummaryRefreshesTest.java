package org.agentmemory.conversation.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;
import org.junit.jupiter.api.Test;

/**
 * Which turns a Stage 2 refresh adds: exactly the dropped candidates the summary does not cover yet, and only them.
 */
class SummaryRefreshesTest {

    /** Turns t1..tN at sequences 1..N; the ones listed in {@code blank} render nothing. */
    private static List<HistoryWindow.Row> rows(int count, int... blank) {
        List<HistoryWindow.Row> rows = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            boolean isBlank = false;
            for (int b : blank) {
                isBlank |= b == i;
            }
            rows.add(new HistoryWindow.Row(i, "t" + i, null, isBlank));
        }
        return rows;
    }

    private static TurnRecord turn(long seq, String assistant) {
        TurnRecord t = TurnRecord.of("t" + seq, "question " + seq, assistant);
        return t.withIdentity(t.turnId(), seq, t.userId(), t.timestamp(), t.chatbotId(), t.state(), t.schemaVersion());
    }

    @Test
    void aFirstDropCoversTheDroppedCandidatesFromTheOldest() {
        SummaryRefreshes.Plan plan = SummaryRefreshes.plan(rows(12, 2), "t12", 4, null, null);

        // Candidates before t12 are t1, t3, t4, t5, …: the 4 dropped are t1, t3, t4, t5 (t2 renders nothing).
        assertThat(plan).isEqualTo(new SummaryRefreshes.Plan(0, 5, "t5", false));
    }

    @Test
    void aSecondDropExtendsFromTheNewestCoveredTurnOnly() {
        SummaryRefreshes.Plan plan = SummaryRefreshes.plan(rows(16, 2), "t16", 7, 5L, "t5");

        assertThat(plan).isEqualTo(new SummaryRefreshes.Plan(5, 8, "t8", true));
    }

    @Test
    void nothingIsAddedWhenTheSummaryAlreadyReachesTheDroppedTurns() {
        assertThat(SummaryRefreshes.plan(rows(16), "t16", 5, 5L, "t5")).isNull();
        assertThat(SummaryRefreshes.plan(rows(16), "t16", 3, 5L, "t5")).isNull();
        // An older commit handled after a newer one never shrinks the summary, even when it covers that commit's turn.
        assertThat(SummaryRefreshes.plan(rows(16), "t9", 4, 12L, "t12")).isNull();
    }

    @Test
    void nothingIsAddedWithoutDroppedTurnsOrWhenTheTurnIsGone() {
        assertThat(SummaryRefreshes.plan(rows(10), "t10", 0, null, null)).isNull();
        assertThat(SummaryRefreshes.plan(rows(10), "t99", 3, null, null)).isNull();
        assertThat(SummaryRefreshes.plan(rows(3, 1, 2), "t3", 2, null, null)).isNull();
    }

    @Test
    void moreDroppedTurnsThanCandidatesCoverEveryCandidateBeforeTheTurn() {
        assertThat(SummaryRefreshes.plan(rows(5), "t5", 50, null, null))
                .isEqualTo(new SummaryRefreshes.Plan(0, 4, "t4", false));
    }

    @Test
    void aSummaryWhoseNewestTurnIsNoLongerStoredIsReplaced() {
        // The conversation was cleared: its turns now start at sequence 20 and the covered t5 is gone.
        List<HistoryWindow.Row> rows = new ArrayList<>();
        for (int i = 20; i <= 30; i++) {
            rows.add(new HistoryWindow.Row(i, "n" + i, null, false));
        }

        assertThat(SummaryRefreshes.plan(rows, "n30", 3, 5L, "t5"))
                .isEqualTo(new SummaryRefreshes.Plan(0, 22, "n22", false));
        // Same sequence, another turn id: not the covered turn either.
        assertThat(SummaryRefreshes.plan(rows(10), "t10", 3, 2L, "other"))
                .isEqualTo(new SummaryRefreshes.Plan(0, 3, "t3", false));
    }

    @Test
    void theTurnsToAddAreThoseInTheRangeThatRenderSomething() {
        TurnRecord toolOnly = turn(7, "").withToolInvocations(List.of(ToolInvocationRecord.of("bash", Map.of(), "ok")));
        List<TurnRecord> read = List.of(turn(6, "answer"), toolOnly, turn(8, " "), turn(9, "answer"), turn(10, "x"));

        List<TurnRecord> added = SummaryRefreshes.toAdd(read, new SummaryRefreshes.Plan(5, 9, "t9", true));

        assertThat(added).extracting(TurnRecord::turnId).containsExactly("t6", "t7", "t9");
    }
}
