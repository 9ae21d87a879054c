package org.agentmemory.api.conversation;

import java.io.Serializable;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
@Schema(description = "A conversation with all its turns in sequence order.")
public record ConversationHistory(
        @Schema(description = "The service's id of the conversation, used in /conversations/{id} paths.")
        long conversationId,

        @Schema(description = "The (tenant, chatbot, user, session) key.")
        ConversationKey key,

        @Schema(description = "Creation time, ISO-8601 UTC, microseconds.")
        Instant createdAt,

        @Schema(
                description =
                        "Last change (turn added, metadata changed, history cleared), ISO-8601 UTC," + " microseconds.")
        Instant updatedAt,

        @Schema(
                description = "The conversation's shared metadata object; the key compaction holds the token"
                        + " calibration state. Never null.")
        Map<String, Object> metadata,

        @Schema(
                description = "Optimistic-locking version; it changes on every write to the conversation. Sent as"
                        + " the ETag; send it back in If-Match to replace the metadata conditionally.")
        long version,

        @Schema(description = "The turns, ordered by sequence; never null.")
        List<TurnRecord> turns)
        implements Serializable {

    public ConversationHistory {
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        turns = turns == null ? List.of() : List.copyOf(turns);
    }
}
