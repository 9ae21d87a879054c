/**
 * Read-path contract (spec §5, §7.4, §8, §9): what a bot asks for before a model call
 * ({@link org.agentmemory.api.context.ContextRequest}) and gets back
 * ({@link org.agentmemory.api.context.ConversationContext}: rendered messages, tiers, boundary, Stage-2 flag
 * and the {@link org.agentmemory.api.compaction.CompactionCommit} to send back with the round's turn), the
 * omission recovery tool, and the long-term context assembly with its plug points
 * ({@link org.agentmemory.api.context.ContextSectionProvider}).
 *
 * <p>Decisions: the budget never makes a call fail: a window that leaves nothing available, or a history
 * budget of 0 tokens, answers with zero messages and says so, while negative sizes are input errors; the
 * recovery tool never throws and answers with the spec's exact texts, because agents hand its answer to the
 * model as a tool result; the read path writes only the omissions its messages refer to (so every id shown is
 * recoverable) and leaves the persisted compaction state to the commit that comes back with the round's turn
 * (spec §5.4); other components plug sections into the assembly as CDI beans, discovered at call time, so the
 * conversation component does not depend on them.
 */
package org.agentmemory.api.context;
