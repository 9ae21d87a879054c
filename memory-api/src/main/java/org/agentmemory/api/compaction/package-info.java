/**
 * Compaction contract (spec §1.3, §4, §5, §8): the per-conversation
 * {@link org.agentmemory.api.compaction.CompactionState} persisted under {@code metadata["compaction"]}, the
 * {@link org.agentmemory.api.compaction.CompactionCommit} a bot hands over with the turn it saves, the token
 * budget a history must fit, the provider-neutral messages it renders to, the per-turn tiers, and the Stage 2
 * {@link org.agentmemory.api.compaction.HistorySummary} of the turns dropped from the context (issue 35 item 4).
 *
 * <p>Decisions: the state and the Stage 2 summary are the only compaction data persisted (pruned views are
 * never stored; decision 0017 for the summary); the state's
 * map form uses exactly the spec's snake_case keys so that histories written by the Python system read back
 * unchanged; reading is tolerant (missing or mistyped keys take the documented defaults) because a damaged
 * calibration must never make a conversation unreadable. Every size is in tokens of the configured counter
 * unless a name says {@code Chars} (code points); records validate their invariants in the constructor and
 * throw {@link java.lang.IllegalArgumentException} naming the field, the rule and the bad value.
 */
package org.agentmemory.api.compaction;
