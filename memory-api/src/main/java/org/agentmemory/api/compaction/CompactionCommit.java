package org.agentmemory.api.compaction;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What a bot hands over with the turn it saves after a round (spec §1.3 {@code CompactionCommit}, §4, §5.4
 * step 7). Folded into the persisted {@link CompactionState} in the same write as the turn.
 *
 * <p>The context operation of {@code org.agentmemory.api.context.ContextMemoryOperations} returns the commit
 * of the round it prepared; send it back unchanged with the turn of that round
 * ({@code ConversationMemoryOperations.addTurn(key, turn, commit)}, REST {@code "compaction"} member of
 * {@code POST /api/v1/turns}).
 *
 * @param promptEstimate  the bot's own estimate of the round's prompt, in tokens of the memory's counter:
 *                        Σ tokens(rendered history messages) + tokens(system prompt) + tokens(user prompt);
 *                        a value ≤ 0 means "no estimate" and leaves the calibration unchanged
 * @param boundaryTurnId  the compaction boundary the read path used (monotonic; the caller guarantees it
 *                        never moves back), or {@code null} to keep the stored one
 * @param stage2Needed    whether the read path asked for Stage 2; ORed into the sticky stored flag
 * @param historyEstimate telemetry only: the compacted history's estimated size in tokens; ignored by the fold,
 *                        reported by the Stage-2 event
 * @param droppedTurns    telemetry only: how many turns the last compaction dropped; ignored by the fold,
 *                        reported by the Stage-2 event
 * @param available       telemetry only: the budget's {@code available} tokens (window − reserves, spec §5.1)
 *                        of the round; ignored by the fold, reported by the Stage-2 event (spec §5.4 step 9);
 *                        0 when unknown
 */
@Schema(
        description =
                "What a bot sends back with the turn of a round (the compaction member of POST /turns): the"
                        + " commit a context call returned for that round, unchanged. Folded into the conversation's calibration"
                        + " state (metadata.compaction) in the same write as the turn. Every member but boundaryTurnId is required.")
public record CompactionCommit(
        @Schema(
                required = true,
                description = "The round's prompt estimate in tokens of the memory's counter: tokens"
                        + " of the rendered history + system prompt + user prompt. 0 or less means no estimate and leaves the"
                        + " calibration unchanged.")
        long promptEstimate,

        @Schema(
                description = "The compaction boundary the read path used (1 to 128 code points), or null to keep"
                        + " the stored one.")
        String boundaryTurnId,

        @Schema(
                required = true,
                description = "Whether the read path asked for Stage 2 (summarization); ORed into the"
                        + " sticky stored flag.")
        boolean stage2Needed,

        @Schema(
                required = true,
                description = "Telemetry: the compacted history's estimated size, tokens, 0 or more;"
                        + " not folded into the state.")
        long historyEstimate,

        @Schema(
                required = true,
                description =
                        "Telemetry: how many turns the compaction dropped, 0 or more; not folded" + " into the state.")
        int droppedTurns,

        @Schema(
                required = true,
                description = "Telemetry: the round's available tokens (window minus reserves), 0 or"
                        + " more; 0 when unknown; not folded into the state.")
        int available)
        implements Serializable {

    /**
     * A commit without telemetry ({@code historyEstimate}, {@code droppedTurns} and {@code available} 0, the
     * spec's defaults).
     *
     * @param promptEstimate the round's prompt estimate in tokens
     * @param boundaryTurnId the boundary, or {@code null}
     * @param stage2Needed   whether Stage 2 is needed
     */
    public CompactionCommit(long promptEstimate, String boundaryTurnId, boolean stage2Needed) {
        this(promptEstimate, boundaryTurnId, stage2Needed, 0L, 0, 0);
    }

    /**
     * A commit with the spec's two telemetry fields and {@code available} unknown (0).
     *
     * @param promptEstimate  the round's prompt estimate in tokens
     * @param boundaryTurnId  the boundary, or {@code null}
     * @param stage2Needed    whether Stage 2 is needed
     * @param historyEstimate the compacted history's estimate in tokens
     * @param droppedTurns    how many turns were dropped
     */
    public CompactionCommit(
            long promptEstimate, String boundaryTurnId, boolean stage2Needed, long historyEstimate, int droppedTurns) {
        this(promptEstimate, boundaryTurnId, stage2Needed, historyEstimate, droppedTurns, 0);
    }
}
