package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A conversation's shared metadata object and the version it was read at.
 *
 * @param conversationId the conversation
 * @param metadata       the metadata (JSON object); never {@code null}
 * @param version        the optimistic-locking version (REST: the {@code ETag})
 * @param updatedAt      last change, UTC
 */
@Schema(description = "A conversation's shared metadata object and the version it was read at.")
public record ConversationMetadata(
        @Schema(description = "The conversation.") long conversationId,

        @Schema(
                description = "The metadata, a JSON object; never null. The key compaction holds the token"
                        + " calibration state.")
        Map<String, Object> metadata,

        @Schema(description = "The optimistic-locking version, also sent as the ETag; send it back in If-Match.")
        long version,

        @Schema(description = "Last change to the conversation, ISO-8601 UTC, microseconds.")
        Instant updatedAt)
        implements Serializable {

    public ConversationMetadata {
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }
}
