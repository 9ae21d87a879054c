package org.agentmemory.conversation.control;

import java.util.ArrayList;
import java.util.List;
import org.agentmemory.api.conversation.TurnRecord;
import org.agentmemory.compaction.control.HistoryRenderer;

/**
 * Which turns a Stage 2 refresh adds to a conversation's summary (issue 35 item 4). A round's commit says how many
 * turns its context left out ({@code droppedTurns}); those are always the oldest candidates before the round's turn
 * (spec §8.5: ceiling drops, then the walk's, then the fitter's, oldest first; a context that showed a summary counts
 * the turns it covers too). So the summary must cover the candidates up to the {@code droppedTurns}-th: a refresh
 * adds the candidates after the newest turn the summary covers, up to that one, and nothing when the summary already
 * reaches it. A summary whose newest turn is no longer stored at its sequence (the turns were cleared) is replaced.
 *
 * <p>Candidates are the turns that render something (a reply or tool activity) of every agent: the commit does not
 * say whether its context excluded other agents' turns; when it did, the count covers fewer turns than were dropped
 * and the next commit extends the summary further. Pure.
 */
public final class SummaryRefreshes {

    private SummaryRefreshes() {}

    /**
     * What to add.
     *
     * @param afterSequence   the sequence the summary covers up to (0 for a new summary): add turns after it
     * @param throughSequence add turns up to this sequence, inclusive
     * @param throughTurnId   the turn id at {@code throughSequence}
     * @param extend          whether the stored summary is extended ({@code false}: a new one replaces it)
     */
    public record Plan(long afterSequence, long throughSequence, String throughTurnId, boolean extend) {}

    /**
     * @param rows          the conversation's turns in sequence order ({@link HistoryWindow#scan})
     * @param turnId        the turn whose commit dropped turns
     * @param droppedTurns  the commit's {@code droppedTurns}
     * @param coveredSeq    the sequence of the newest turn the stored summary covers, or {@code null} without one
     * @param coveredTurnId that turn's id, or {@code null}
     * @return the plan, or {@code null} when there is nothing to add (no turn dropped, the turn is gone, or the
     *         summary already covers every dropped turn)
     */
    public static Plan plan(
            List<HistoryWindow.Row> rows, String turnId, int droppedTurns, Long coveredSeq, String coveredTurnId) {
        int at = -1;
        for (int i = rows.size() - 1; i >= 0; i--) {
            if (rows.get(i).turnId().equals(turnId)) {
                at = i;
                break;
            }
        }
        if (at < 0 || droppedTurns <= 0) {
            return null;
        }
        boolean coveredStored = false;
        for (HistoryWindow.Row row : rows) {
            if (coveredSeq != null
                    && row.sequence() == coveredSeq
                    && row.turnId().equals(coveredTurnId)) {
                coveredStored = true;
                break;
            }
        }
        HistoryWindow.Row through = null;
        int seen = 0;
        for (int i = 0; i < at; i++) {
            HistoryWindow.Row row = rows.get(i);
            if (!row.blank() && seen < droppedTurns) {
                through = row;
                seen++;
            }
        }
        if (through == null) {
            return null;
        }
        if (coveredStored && coveredSeq >= through.sequence()) {
            return null;
        }
        return new Plan(coveredStored ? coveredSeq : 0, through.sequence(), through.turnId(), coveredStored);
    }

    /**
     * @param turns turns read after {@link Plan#afterSequence()}, in sequence order
     * @param plan  the plan
     * @return those up to {@link Plan#throughSequence()} that render something: the turns to add, oldest first
     */
    public static List<TurnRecord> toAdd(List<TurnRecord> turns, Plan plan) {
        List<TurnRecord> added = new ArrayList<>();
        for (TurnRecord turn : turns) {
            if (turn.sequence() != null
                    && turn.sequence() > plan.afterSequence()
                    && turn.sequence() <= plan.throughSequence()
                    && HistoryRenderer.rendersSomething(turn)) {
                added.add(turn);
            }
        }
        return added;
    }
}
