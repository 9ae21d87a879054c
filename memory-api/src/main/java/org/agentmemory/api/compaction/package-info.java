/**
 * Read-time compaction contract (spec §5, §8): the token budget a conversation history must fit, the
 * provider-neutral messages it renders to, and the per-turn tiers (RAW or PRUNED) a compaction decides.
 *
 * <p>Decisions: every size is in tokens of the memory's configured counter unless a name says
 * {@code Chars} (Unicode code points); records validate their invariants in the constructor and throw
 * {@link java.lang.IllegalArgumentException} naming the field, the rule and the bad value; the records are
 * immutable and {@link java.io.Serializable} so remote clients can receive them.
 */
package org.agentmemory.api.compaction;
