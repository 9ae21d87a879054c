package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
@Schema(description = "A slice of a conversation's turns in sequence order.")
public record TurnPage(
        @Schema(description = "The conversation.") long conversationId,
        @Schema(description = "Its key.") ConversationKey key,

        @Schema(description = "Turns with a sequence greater than after, at most limit; never null.")
        List<TurnRecord> turns,

        @Schema(
                description = "Sequence of the last turn returned, or after when none was; pass it back as after"
                        + " for the next slice.")
        long lastSequence,

        @Schema(description = "Whether more turns follow.") boolean hasMore)
        implements Serializable {

    public TurnPage {
        turns = turns == null ? List.of() : List.copyOf(turns);
    }
}
