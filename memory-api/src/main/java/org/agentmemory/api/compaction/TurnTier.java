package org.agentmemory.api.compaction;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The tier a compaction gave one turn, without its text (spec §8.5): for reports and telemetry.
 *
 * @param turnId          the turn's id
 * @param chatbotId       the agent that produced the turn, or {@code null}
 * @param state           {@link TurnState#RAW} or {@link TurnState#PRUNED}; anything else is an
 *                        {@link IllegalArgumentException}
 * @param estimatedTokens calibrated size of the rendered turn, tokens (≥ 0)
 */
@Schema(description = "The tier a compaction gave one shown turn, without its text.")
public record TurnTier(
        @Schema(description = "The turn's id.") String turnId,

        @Schema(description = "The agent that produced the turn, or null.")
        String chatbotId,

        @Schema(
                description = "raw (shown as written) or pruned (tool activity condensed; a reduced turn counts as"
                        + " pruned).")
        TurnState state,

        @Schema(description = "Calibrated size of the rendered turn, tokens, 0 or more.")
        int estimatedTokens)
        implements Serializable {

    public TurnTier {
        TurnView.requireViewState(state);
    }
}
