package org.agentmemory.api.compaction;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The Stage 2 summary of a conversation's earlier turns (issue 35 item 4): one per conversation, covering a
 * contiguous range of its turns from the oldest, written after a round's commit dropped turns from the model's
 * context and extended with only the turns dropped since (never re-summarised from the start). The context
 * operation puts it, marked, in front of the shown turns in place of the covered ones.
 *
 * <p>Returned by {@code ContextMemoryOperations.summary} as stored, and inside a {@code ConversationContext} as
 * shown: there {@link #text()} and {@link #tokenCount()} are those of the text put in the messages, which keeps only
 * its newest lines when the whole summary exceeds its share of the history budget ({@link #shortened()}).
 *
 * @param conversationId the conversation
 * @param firstTurnId    the oldest turn covered
 * @param lastTurnId     the newest turn covered
 * @param firstSequence  the sequence of {@code firstTurnId}, ≥ 1
 * @param lastSequence   the sequence of {@code lastTurnId}, ≥ {@code firstSequence}
 * @param turnCount      turns covered: every turn of the range that renders something (a reply or tool activity),
 *                       of every agent; ≥ 1
 * @param text           the summary; never blank
 * @param tokenCount     tokens of {@code text} by {@code tokenizer}
 * @param tokenizer      the counter of {@code tokenCount}, e.g. {@code o200k_base}
 * @param method         how the newest extension was written
 * @param refreshes      how many times the summary was written: 1 when created, +1 per extension
 * @param addedTurns     turns the newest write added (all of {@code turnCount} when created)
 * @param shortened      {@code true} only in a context answer whose budget left room for the newest lines alone
 * @param updatedAt      when it was last written, UTC
 */
@Schema(
        description = "The Stage 2 summary of a conversation's earlier turns: a contiguous range of its turns from the"
                + " oldest, summarised when a round's commit dropped them from the model's context and extended with only"
                + " the turns dropped since. In a context answer: the text as shown in the messages.")
public record HistorySummary(
        @Schema(description = "The conversation.") long conversationId,

        @Schema(description = "The oldest turn covered.") String firstTurnId,

        @Schema(description = "The newest turn covered.") String lastTurnId,

        @Schema(description = "Sequence of the oldest turn covered, 1 or more.")
        long firstSequence,

        @Schema(description = "Sequence of the newest turn covered, at least firstSequence.")
        long lastSequence,

        @Schema(
                description = "Turns covered: every turn of the range that renders something (a reply or tool"
                        + " activity), of every agent; 1 or more.")
        int turnCount,

        @Schema(
                description = "The summary; never blank. In a context answer, the text as shown (its newest lines"
                        + " when shortened).")
        String text,

        @Schema(description = "Tokens of text, by tokenizer.")
        int tokenCount,

        @Schema(description = "The counter of tokenCount, e.g. o200k_base.")
        String tokenizer,

        @Schema(description = "How the newest extension was written: model or extractive.")
        SummaryMethod method,

        @Schema(description = "How many times the summary was written: 1 when created, one more per extension.")
        int refreshes,

        @Schema(description = "Turns the newest write added (all of turnCount when it was created).")
        int addedTurns,

        @Schema(
                description = "true only in a context answer whose budget left room for the newest lines of the"
                        + " summary alone.")
        boolean shortened,

        @Schema(description = "When it was last written, ISO-8601 UTC.")
        Instant updatedAt)
        implements Serializable {

    /**
     * @param shownText   the text as put in the messages
     * @param shownTokens its tokens
     * @return this summary as shown in a context answer: the given text, {@link #shortened()} when it differs from
     *         the stored one
     */
    public HistorySummary shown(String shownText, int shownTokens) {
        return new HistorySummary(
                conversationId,
                firstTurnId,
                lastTurnId,
                firstSequence,
                lastSequence,
                turnCount,
                shownText,
                shownTokens,
                tokenizer,
                method,
                refreshes,
                addedTurns,
                !shownText.equals(text),
                updatedAt);
    }
}
