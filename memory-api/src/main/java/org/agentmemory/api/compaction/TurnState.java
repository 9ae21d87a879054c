package org.agentmemory.api.compaction;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * State of a turn (spec §1.3). Storage always holds {@link #RAW}; {@link #PRUNED} exists only in
 * compacted views; {@link #SUMMARIZED} is reserved for Stage 2 and never produced.
 */
@Schema(
        description = "State of a turn: raw (as stored; storage holds only raw turns), pruned (tool activity"
                + " condensed, in compacted views only) or summarized (reserved for Stage 2, never produced). Lower case in"
                + " JSON.")
public enum TurnState {
    RAW,
    PRUNED,
    SUMMARIZED
}
