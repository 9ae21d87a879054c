package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One conversation in a listing, without its turns.
 *
 * @param conversationId the service's id of the conversation
 * @param key            its key
 * @param createdAt      creation time, UTC
 * @param updatedAt      last change, UTC
 * @param turnCount      number of stored turns
 */
@Schema(description = "One conversation in a listing, without its turns.")
public record ConversationSummary(
        @Schema(description = "The service's id of the conversation.")
        long conversationId,

        @Schema(description = "Its key.") ConversationKey key,

        @Schema(description = "Creation time, ISO-8601 UTC.")
        Instant createdAt,

        @Schema(description = "Last change, ISO-8601 UTC.") Instant updatedAt,
        @Schema(description = "Number of stored turns.") long turnCount)
        implements Serializable {}
