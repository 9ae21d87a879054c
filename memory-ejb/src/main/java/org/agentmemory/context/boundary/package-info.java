/**
 * The read path's session bean: compaction into a model's budget, omission recovery and context assembly
 * behind {@link org.agentmemory.api.context.ContextMemory} and
 * {@link org.agentmemory.api.context.ContextMemoryRemote}.
 *
 * <p>Decisions: reads run without a transaction and lock nothing; only the omissions a rendering refers to are
 * written, in their own transaction under the conversation's row lock, before the answer leaves the bean (spec
 * §5.4 step 4); the persisted boundary and calibration are read here and written only by the commit that comes
 * back with the round's turn, so a context call that is never followed by a model call changes nothing; the
 * Stage-2 event is fired at that write, not here (see
 * {@link org.agentmemory.api.compaction.Stage2CompactionNeeded}); section providers are looked up per call, so
 * components plugged in later need no change here.
 */
package org.agentmemory.context.boundary;
