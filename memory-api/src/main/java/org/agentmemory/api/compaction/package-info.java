/**
 * Compaction contract (spec §1.3, §4): the per-conversation {@link
 * org.agentmemory.api.compaction.CompactionState} persisted under {@code metadata["compaction"]} and the
 * {@link org.agentmemory.api.compaction.CompactionCommit} a bot hands over with the turn it saves.
 *
 * <p>Decisions: the state is the ONLY compaction data ever persisted (pruned views are never stored); its
 * map form uses exactly the spec's snake_case keys so that histories written by the Python system read back
 * unchanged; reading is tolerant (missing or mistyped keys take the documented defaults) because a damaged
 * calibration must never make a conversation unreadable, and the next commit repairs it.
 */
package org.agentmemory.api.compaction;
