package org.agentmemory.api.compaction;

import java.io.Serializable;

/**
 * CDI event fired once per conversation when its persisted {@code stage2_needed} flag first turns true
 * (spec §5.4 step 9, the reference's {@code Stage2CompactionNeededEvent}). Fired by the write that folds a
 * {@link CompactionCommit} whose {@code stage2Needed} is true into a state whose flag was false; observers in
 * the same application see it after that transaction committed (observe with
 * {@code @Observes(during = TransactionPhase.AFTER_SUCCESS)}). The flag is sticky, so the event never repeats
 * for the conversation, not even after its turns are cleared.
 *
 * @param tenantId        the conversation's tenant; never {@code null}
 * @param conversationId  the conversation
 * @param historyEstimate the commit's history estimate, tokens
 * @param available       the commit's {@code available} budget, tokens (0 when the client did not report it)
 * @param droppedTurns    how many turns the round's compaction dropped
 */
public record Stage2CompactionNeeded(
        String tenantId, long conversationId, long historyEstimate, int available, int droppedTurns)
        implements Serializable {}
