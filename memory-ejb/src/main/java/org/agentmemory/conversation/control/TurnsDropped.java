package org.agentmemory.conversation.control;

/**
 * CDI event of the conversation component: a round's commit reported dropped turns for a conversation whose Stage-2
 * flag is set, so its summary may need extending (issue 35 item 4). Fired by the write that folded the commit;
 * observed after that transaction committed.
 *
 * @param tenantId       the conversation's tenant
 * @param conversationId the conversation
 * @param turnId         the turn the commit came with
 * @param droppedTurns   the commit's {@code droppedTurns}, ≥ 1
 */
public record TurnsDropped(String tenantId, long conversationId, String turnId, int droppedTurns) {}
