package org.agentmemory.api.context;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * How a conversation's history was fitted into its budget, from the least to the most invasive.
 */
@Schema(
        description = "How a history was fitted into its budget, least to most invasive: fitted (the walk fits as"
                + " it is), trimmed (only the newest turn verbatim and/or the oldest shown turns removed), reduced (only the"
                + " newest turn, reduced), nothing_to_render (no turns with a response; zero messages), budget_too_small"
                + " (not even the reduced newest turn fits; zero messages), uncompacted (compaction is off or its omissions"
                + " could not be stored: the last maxTurns turns as they are, no commit). Lower case in JSON.")
public enum ContextOutcome {
    /** The spec §8.5 walk (newest turns RAW, older PRUNED, oldest dropped) fits the budget as it is. */
    FITTED,
    /** It fits after keeping only the newest turn verbatim and/or removing the oldest shown turns. */
    TRIMMED,
    /**
     * Only the newest turn is shown, reduced: every tool output as an omission notice and, when needed, its
     * texts cut in the middle with an explicit {@code …[truncated N chars]…} marker.
     */
    REDUCED,
    /** Nothing to show: no turns, or only turns with a blank assistant response. Zero messages. */
    NOTHING_TO_RENDER,
    /** The history has turns to show but not even the reduced newest turn fits the budget. Zero messages. */
    BUDGET_TOO_SMALL,
    /**
     * Compaction is off ({@code memory.compaction.enabled=false}) or its omissions could not be stored: the
     * plain rendering of the last {@code maxTurns} turns (spec §5.3), without pruning and without a commit.
     */
    UNCOMPACTED
}
