package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.List;

/**
 * A slice of a conversation's turns in sequence order, for streaming exports.
 *
 * @param conversationId the conversation
 * @param key            its key
 * @param turns          turns with sequence greater than the requested one, at most the requested limit
 * @param lastSequence   sequence of the last turn returned, or the requested one when empty; pass it back
 *                       to get the next slice
 * @param hasMore        whether more turns follow
 */
public record TurnPage(long conversationId, ConversationKey key, List<TurnRecord> turns, long lastSequence,
        boolean hasMore) implements Serializable {

    public TurnPage {
        turns = turns == null ? List.of() : List.copyOf(turns);
    }
}
