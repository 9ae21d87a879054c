package org.agentmemory.api.context;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.TurnTier;

/**
 * A conversation's history compacted and rendered for one round (spec §5.4 steps 1–5, §8), ready to send to
 * the model, with what the service decided and the commit to send back. Sizes are tokens of the memory's
 * counter ({@link #tokenizer()}).
 *
 * <p>Guarantees: {@link #messages()} alternate strictly {@code user}, {@code assistant}, …, start with
 * {@code user}, end with {@code assistant}, contain no blank content, keep the stored order, and
 * Σ tokens(content) = {@link #tokensUsed()} ≤ {@link #historyBudget()} (unless the outcome is
 * {@link ContextOutcome#UNCOMPACTED}, where {@link #withinBudget()} says whether it fits). Every omission id
 * the messages mention was stored before this was returned, so {@code readOmittedContent} finds it.
 *
 * @param conversationId  the conversation, or {@code null} when it was asked for by a key that has no
 *                        conversation yet (the first round of a session); never {@code null} otherwise
 * @param messages        the history to send, oldest first; empty for {@link ContextOutcome#NOTHING_TO_RENDER}
 *                        and {@link ContextOutcome#BUDGET_TOO_SMALL}
 * @param tiers           the tier of each shown turn (RAW or PRUNED, a reduced turn counts as PRUNED), oldest
 *                        first, with its calibrated size in tokens
 * @param droppedTurnIds  turns considered but not shown, oldest first: beyond the {@code maxTurns} ceiling,
 *                        dropped by the walk, then removed to fit (turns with a blank response are never
 *                        candidates and are not listed)
 * @param historyEstimate Σ of the shown turns' calibrated sizes, tokens (spec §8.5 {@code history_estimate})
 * @param boundaryTurnId  the compaction boundary after this round: the newest PRUNED turn shown, else the
 *                        persisted boundary; {@code null} when there is none
 * @param stage2Needed    whether Stage 2 (summarization) is needed: the walk overflowed its watermark, the
 *                        estimate exceeds {@code available}, or turns had to be removed or reduced to fit
 * @param outcome         how the history was fitted; never {@code null}
 * @param reduced         {@code outcome == REDUCED}: the newest turn is shown reduced
 * @param budgetTooSmall  {@code outcome == BUDGET_TOO_SMALL}: the history had something to show but nothing fits
 * @param note            a sentence for people saying why fewer or no messages were returned (and what to
 *                        change), or {@code null} when everything considered is shown
 * @param tokensUsed      Σ tokens(message content) of {@link #messages()}
 * @param historyBudget   H, the tokens the history may use (see {@link ContextRequest})
 * @param window          the window the budget was computed from, tokens
 * @param available       {@code max(0, window − reserveOutput − reserveFixed)}, tokens
 * @param calibration     the persisted calibration (provider tokens per estimated token) the sizes used
 * @param tokenizer       the counter every size is in, e.g. {@code o200k_base}
 * @param withinBudget    {@code tokensUsed ≤ historyBudget}; always {@code true} unless the outcome is
 *                        {@link ContextOutcome#UNCOMPACTED}
 * @param commit          what to send back with this round's turn ({@code addTurn(key, turn, commit)}):
 *                        prompt estimate = {@code tokensUsed} + system prompt + user prompt tokens, the boundary,
 *                        {@code stage2Needed}, and telemetry; {@code null} for {@link ContextOutcome#UNCOMPACTED}
 *                        (spec §5.4: no commit without a compaction)
 */
public record ConversationContext(
        Long conversationId,
        List<HistoryMessage> messages,
        List<TurnTier> tiers,
        List<String> droppedTurnIds,
        long historyEstimate,
        String boundaryTurnId,
        boolean stage2Needed,
        ContextOutcome outcome,
        boolean reduced,
        boolean budgetTooSmall,
        String note,
        int tokensUsed,
        int historyBudget,
        int window,
        int available,
        double calibration,
        String tokenizer,
        boolean withinBudget,
        CompactionCommit commit) implements Serializable {

    public ConversationContext {
        messages = messages == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(messages));
        tiers = tiers == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(tiers));
        droppedTurnIds = droppedTurnIds == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(droppedTurnIds));
    }
}
