package org.agentmemory.api.context;

/**
 * How a conversation's history was fitted into its budget, from the least to the most invasive.
 */
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
