package org.agentmemory.api.compaction;

/**
 * State of a turn (spec §1.3). Storage always holds {@link #RAW}; {@link #PRUNED} exists only in
 * compacted views; {@link #SUMMARIZED} is reserved for Stage 2 and never produced.
 */
public enum TurnState {
    RAW, PRUNED, SUMMARIZED
}
