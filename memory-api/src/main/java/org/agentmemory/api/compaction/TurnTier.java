package org.agentmemory.api.compaction;

import java.io.Serializable;


/**
 * The tier a compaction gave one turn, without its text (spec §8.5): for reports and telemetry.
 *
 * @param turnId          the turn's id
 * @param chatbotId       the agent that produced the turn, or {@code null}
 * @param state           {@link TurnState#RAW} or {@link TurnState#PRUNED}; anything else is an
 *                        {@link IllegalArgumentException}
 * @param estimatedTokens calibrated size of the rendered turn, tokens (≥ 0)
 */
public record TurnTier(String turnId, String chatbotId, TurnState state, int estimatedTokens) implements Serializable {

    public TurnTier {
        TurnView.requireViewState(state);
    }
}
