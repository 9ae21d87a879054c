package org.agentmemory.compaction.control;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.TurnView;

/**
 * A rendered history guaranteed to fit a token budget ({@link ContextWindowFitter}).
 *
 * @param messages        the messages to send: strictly alternating, user first, assistant last, no blank
 *                        content; empty for {@link Outcome#NOTHING_TO_RENDER} and
 *                        {@link Outcome#BUDGET_TOO_SMALL}
 * @param views           the views the messages were rendered from, oldest → newest
 * @param omissions       the omissions the messages' notices refer to, de-duplicated by content id (newest
 *                        turn first); flush them before sending
 * @param outcome         how the history was fitted
 * @param historyBudget   the budget the messages were fitted to, tokens (≥ 0)
 * @param tokensUsed      Σ counter.count(content) over {@code messages}, tokens; always
 *                        {@code ≤ historyBudget} (and {@code ceil(max(1, calibration) × tokensUsed) ≤
 *                        historyBudget})
 * @param boundaryTurnId  the boundary to persist: the newest PRUNED view shown (a REDUCED turn counts as
 *                        PRUNED), else the input boundary, as in spec §8.5 step 9; {@code null} when none
 * @param stage2Needed    the walk's Stage-2 flag, or the fitter had to remove or reduce turns
 * @param droppedTurnIds  turns not shown, oldest first: ceiling-dropped, walk-dropped, then removed by the
 *                        fitter
 */
public record FittedHistory(
        List<HistoryMessage> messages,
        List<TurnView> views,
        List<PendingOmission> omissions,
        Outcome outcome,
        int historyBudget,
        int tokensUsed,
        String boundaryTurnId,
        boolean stage2Needed,
        List<String> droppedTurnIds) {

    /** How a history was fitted, from the least to the most invasive. */
    public enum Outcome {
        /** The spec §8.5 walk, with its watermark lowered to the history budget, fits as it is. */
        FITTED,
        /** Fits after relaxing {@code minVerbatimTurns} to 1 and/or removing the oldest views. */
        TRIMMED,
        /**
         * Only the newest turn is shown, REDUCED: its tool outputs as omission notices (lines beyond what
         * fits replaced by {@code … +N more}) and, if needed, its texts cut in the middle with
         * {@link ContextWindowFitter#truncationMarker(int)}.
         */
        REDUCED,
        /** No turn renders a message (empty history, or only blank assistant responses); no messages. */
        NOTHING_TO_RENDER,
        /** Not even the reduced newest turn fits the budget; no messages. */
        BUDGET_TOO_SMALL
    }

    public FittedHistory {
        messages = List.copyOf(messages);
        views = List.copyOf(views);
        omissions = List.copyOf(omissions);
        droppedTurnIds = Collections.unmodifiableList(new ArrayList<>(droppedTurnIds));
    }

    /** @return {@code true} when the newest turn had to be reduced ({@link Outcome#REDUCED}) */
    public boolean reduced() {
        return outcome == Outcome.REDUCED;
    }

    /** @return {@code true} when no message is returned although the history has something to show */
    public boolean budgetTooSmall() {
        return outcome == Outcome.BUDGET_TOO_SMALL;
    }
}
