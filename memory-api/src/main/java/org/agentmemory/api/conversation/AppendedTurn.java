package org.agentmemory.api.conversation;

import java.io.Serializable;

/**
 * Result of adding a turn.
 *
 * @param conversationId the conversation the turn belongs to (created when it did not exist)
 * @param turn           the turn as stored: normalized, counted, sequenced
 * @param created        {@code false} when a turn with the same id already existed and nothing was written
 */
public record AppendedTurn(long conversationId, TurnRecord turn, boolean created) implements Serializable {
}
