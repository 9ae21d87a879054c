package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.time.Instant;

/**
 * One conversation in a listing, without its turns.
 *
 * @param conversationId the service's id of the conversation
 * @param key            its key
 * @param createdAt      creation time, UTC
 * @param updatedAt      last change, UTC
 * @param turnCount      number of stored turns
 */
public record ConversationSummary(long conversationId, ConversationKey key, Instant createdAt, Instant updatedAt,
        long turnCount) implements Serializable {
}
