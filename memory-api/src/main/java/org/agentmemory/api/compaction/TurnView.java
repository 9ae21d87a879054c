package org.agentmemory.api.compaction;

import java.io.Serializable;
import java.util.Objects;

/**
 * One turn as a compaction decided to show it (spec §1.3 {@code TurnView}, §8.5): the texts, the rendered
 * {@code <tool-activity>} suffix and the tier. Views are derived at read time and never stored.
 *
 * @param turnId          the turn's id
 * @param chatbotId       the agent that produced the turn, or {@code null} for legacy turns
 * @param userText        the user message; never {@code null} ({@code ""} when absent)
 * @param assistantText   the assistant response; never {@code null}
 * @param assistantSuffix the rendered tool-activity block appended to a non-blank assistant text
 *                        ({@code ""} for a turn without tool invocations); never {@code null}
 * @param state           {@link TurnState#RAW} or {@link TurnState#PRUNED}
 * @param estimatedTokens {@code ceil(calibration × (user + assistant + suffix tokens))}, tokens
 */
public record TurnView(
        String turnId,
        String chatbotId,
        String userText,
        String assistantText,
        String assistantSuffix,
        TurnState state,
        int estimatedTokens)
        implements Serializable {

    public TurnView {
        userText = Objects.requireNonNullElse(userText, "");
        assistantText = Objects.requireNonNullElse(assistantText, "");
        assistantSuffix = Objects.requireNonNullElse(assistantSuffix, "");
        requireViewState(state);
    }

    /** @return the tier of this view, without the texts */
    public TurnTier tier() {
        return new TurnTier(turnId, chatbotId, state, estimatedTokens);
    }

    static void requireViewState(TurnState state) {
        if (state != TurnState.RAW && state != TurnState.PRUNED) {
            throw new IllegalArgumentException("a view's state must be RAW or PRUNED but was " + state);
        }
    }
}
