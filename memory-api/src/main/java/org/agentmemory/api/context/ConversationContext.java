package org.agentmemory.api.context;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.agentmemory.api.compaction.CompactionCommit;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.compaction.HistorySummary;
import org.agentmemory.api.compaction.TurnTier;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
 * @param droppedTurnIds  turns considered but not shown as turns, oldest first: beyond the {@code maxTurns}
 *                        ceiling, covered by the shown {@link #summary()}, dropped by the walk, then removed to fit
 *                        (turns with a blank response are never candidates and are not listed)
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
 *                        {@code stage2Needed}, and telemetry ({@code droppedTurns} counts the turns a summary
 *                        covers too: the commit's turn extends the summary to them); {@code null} for {@link ContextOutcome#UNCOMPACTED}
 *                        (spec §5.4: no commit without a compaction)
 * @param summary         the Stage 2 summary of earlier turns the messages carry, as shown (issue 35 item 4): its
 *                        text, marked, opens the first user message in place of the turns it covers, within
 *                        {@code historyBudget}; {@code null} when none is shown (no turn was dropped, no summary is
 *                        stored yet, or not even its newest line fits)
 */
@Schema(
        description = "A conversation's history compacted and rendered for one round, ready to send to the model,"
                + " with the commit to send back with the round's turn. Sizes are tokens of the memory's counter.")
public record ConversationContext(
        @Schema(
                description = "The conversation, or null when the key has no conversation yet (the first round of"
                        + " a session).")
        Long conversationId,

        @Schema(
                description =
                        "The history to send, oldest first: strictly alternating user and assistant, starting"
                                + " with user and ending with assistant, no blank content. Empty for the outcomes nothing_to_render"
                                + " and budget_too_small. Every omission id they mention is readable before the answer is sent.")
        List<HistoryMessage> messages,

        @Schema(description = "The tier of each shown turn, oldest first, with its calibrated size.")
        List<TurnTier> tiers,

        @Schema(
                description = "Turns considered but not shown as turns, oldest first: beyond maxTurns, covered by the"
                        + " shown summary, dropped by the walk, then removed to fit. Turns with a blank response are never"
                        + " candidates and not listed.")
        List<String> droppedTurnIds,

        @Schema(description = "Sum of the shown turns' calibrated sizes, tokens.")
        long historyEstimate,

        @Schema(
                description = "The compaction boundary after this round: the newest pruned turn shown, else the"
                        + " stored boundary; null when there is none.")
        String boundaryTurnId,

        @Schema(
                description = "Whether Stage 2 (summarization) is needed: the walk overflowed its watermark, the"
                        + " estimate exceeds available, or turns had to be removed or reduced to fit.")
        boolean stage2Needed,

        @Schema(description = "How the history was fitted; never null.")
        ContextOutcome outcome,

        @Schema(description = "true when outcome is reduced: the newest turn is shown reduced.")
        boolean reduced,

        @Schema(description = "true when outcome is budget_too_small: there was history to show but nothing fits.")
        boolean budgetTooSmall,

        @Schema(
                description = "Why fewer or no messages were returned and what to change, for people; null when"
                        + " everything considered is shown.")
        String note,

        @Schema(
                description = "Sum of the tokens of the messages' content; at most historyBudget unless the"
                        + " outcome is uncompacted.")
        int tokensUsed,

        @Schema(description = "The tokens the history may use (see ContextRequest).")
        int historyBudget,

        @Schema(description = "The window the budget was computed from, tokens.")
        int window,

        @Schema(description = "max(0, window − reserveOutput − reserveFixed), tokens.")
        int available,

        @Schema(description = "The stored calibration (provider tokens per estimated token) the sizes used.")
        double calibration,

        @Schema(description = "The counter every size is in, e.g. o200k_base.")
        String tokenizer,

        @Schema(description = "tokensUsed ≤ historyBudget; always true unless the outcome is uncompacted.")
        boolean withinBudget,

        @Schema(
                description = "Send this back unchanged as compaction with the round's POST /turns; null for the"
                        + " outcome uncompacted (no commit without a compaction).")
        CompactionCommit commit,

        @Schema(
                description = "The Stage 2 summary of earlier turns the messages carry, as shown: its text, marked,"
                        + " opens the first user message in place of the turns it covers, within historyBudget. null when"
                        + " none is shown (no turn was dropped or no summary is stored yet).")
        HistorySummary summary)
        implements Serializable {

    public ConversationContext {
        messages = messages == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(messages));
        tiers = tiers == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(tiers));
        droppedTurnIds =
                droppedTurnIds == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(droppedTurnIds));
    }
}
