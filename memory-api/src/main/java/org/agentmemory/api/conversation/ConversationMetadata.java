package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A conversation's shared metadata object and the version it was read at.
 *
 * @param conversationId the conversation
 * @param metadata       the metadata (JSON object); never {@code null}
 * @param version        the optimistic-locking version (REST: the {@code ETag})
 * @param updatedAt      last change, UTC
 */
public record ConversationMetadata(long conversationId, Map<String, Object> metadata, long version, Instant updatedAt)
        implements Serializable {

    public ConversationMetadata {
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }
}
