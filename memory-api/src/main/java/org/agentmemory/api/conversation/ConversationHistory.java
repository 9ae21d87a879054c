package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A conversation with its turns in sequence order (spec §1.4).
 *
 * @param conversationId the service's id of the conversation (used in REST paths)
 * @param key            the (tenant, chatbot, user, session) key
 * @param createdAt      creation time, UTC, microseconds
 * @param updatedAt      last change (turn added, metadata changed, cleared), UTC, microseconds
 * @param metadata       the shared metadata object; key {@code compaction} holds the calibration state
 *                       (spec §4); never {@code null}
 * @param version        optimistic-locking version; it changes on every write to the conversation; REST
 *                       sends it as the {@code ETag}
 * @param turns          the turns, ordered by {@link TurnRecord#sequence()}; never {@code null}
 */
public record ConversationHistory(
        long conversationId,
        ConversationKey key,
        Instant createdAt,
        Instant updatedAt,
        Map<String, Object> metadata,
        long version,
        List<TurnRecord> turns) implements Serializable {

    public ConversationHistory {
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        turns = turns == null ? List.of() : List.copyOf(turns);
    }
}
